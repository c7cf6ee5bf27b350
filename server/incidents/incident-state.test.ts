import { describe, expect, it } from "vitest";
import { canAct, etagOf, parseIfMatch } from "./incident-state.ts";

describe("If-Match and ETag", () => {
  it("round-trips a version", () => {
    expect(parseIfMatch(etagOf(7))).toEqual({ versions: [7] });
    expect(parseIfMatch('W/"3", "4"')).toEqual({ versions: [3, 4] });
    expect(parseIfMatch("*")).toEqual({ any: true });
    expect(parseIfMatch("garbage")).toEqual({ versions: [] });
    expect(parseIfMatch(undefined)).toBeUndefined();
  });
  it("lets Owner and Accepted act, nobody else", () => {
    expect([canAct("Owner"), canAct("Accepted"), canAct("Pending"), canAct("Declined"), canAct(null)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
