import { describe, expect, it } from "vitest";
import { holdNewRows } from "./hold-new-rows";

const rows = (...ids: number[]) => ids.map((id) => ({ id: String(id) }));

describe("holdNewRows", () => {
  it("shows everything while live", () => {
    expect(holdNewRows(rows(12, 11, 10), null)).toEqual({ visible: rows(12, 11, 10), newCount: 0 });
  });
  it("holds back and counts rows newer than the anchor, comparing ids as numbers", () => {
    expect(holdNewRows(rows(100, 99, 10, 9), "99")).toEqual({ visible: rows(99, 10, 9), newCount: 1 });
    expect(holdNewRows(rows(13, 12), "9")).toEqual({ visible: [], newCount: 2 });
  });
});
