import { describe, expect, it } from "vitest";
import { nextActiveIndex } from "./next-active-index";

describe("nextActiveIndex", () => {
  it("moves by one, by a page, and to the ends, clamped", () => {
    expect(nextActiveIndex("ArrowDown", 0, 100_000, 10)).toBe(1);
    expect(nextActiveIndex("ArrowUp", 0, 100_000, 10)).toBe(0);
    expect(nextActiveIndex("PageDown", 99_995, 100_000, 10)).toBe(99_999);
    expect(nextActiveIndex("PageUp", 25, 100_000, 10)).toBe(15);
    expect(nextActiveIndex("End", 3, 100_000, 10)).toBe(99_999);
    expect(nextActiveIndex("Home", 3, 100_000, 10)).toBe(0);
  });
  it("ignores other keys and empty lists", () => {
    expect(nextActiveIndex("a", 3, 10, 5)).toBeNull();
    expect(nextActiveIndex("ArrowDown", 0, 0, 5)).toBeNull();
  });
});
