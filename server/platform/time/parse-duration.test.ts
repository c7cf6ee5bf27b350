import { describe, expect, it } from "vitest";
import { parseDuration } from "./parse-duration.ts";

describe("parseDuration", () => {
  it.each([
    ["61m", 3_660_000],
    ["90s", 90_000],
    ["2h", 7_200_000],
    ["1d", 86_400_000],
    ["1500ms", 1_500],
    ["1500", 1_500],
    ["1.5h", 5_400_000],
  ])("%s → %i ms", (text, expected) => expect(parseDuration(text)).toBe(expected));

  it.each(["", "61x", "-5m", "0", "m", "1h30m", "61 minutes ago"])("refuses %j", (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );
});
