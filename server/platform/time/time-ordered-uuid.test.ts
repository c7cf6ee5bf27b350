import { describe, expect, it } from "vitest";
import { z } from "zod";
import { timeOrderedUuid } from "./time-ordered-uuid.ts";

describe("timeOrderedUuid", () => {
  const at = Date.parse("2026-11-28T10:00:00.000Z");

  it("is a version-7 UUID whose first 48 bits are the time in ms", () => {
    const id = timeOrderedUuid(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
    expect(z.uuid().safeParse(id).success).toBe(true);
  });

  it("sorts by time, and differs within one ms", () => {
    const ids = [at + 5, at, at + 1_000, at + 1].map(timeOrderedUuid);
    expect([...ids].sort()).toEqual([ids[1], ids[3], ids[0], ids[2]]);
    const same = new Set(Array.from({ length: 1_000 }, () => timeOrderedUuid(at)));
    expect(same.size).toBe(1_000);
  });

  it("clamps what does not fit 48 bits", () => {
    expect(timeOrderedUuid(-5).slice(0, 13)).toBe("00000000-0000");
    expect(timeOrderedUuid(2 ** 50).slice(0, 13)).toBe("ffffffff-ffff");
  });
});
