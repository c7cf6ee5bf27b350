import { describe, expect, it } from "vitest";
import { z } from "zod";
import { timeOrderedUuid } from "./time-ordered-uuid.ts";

describe("timeOrderedUuid", () => {
  it("is a version-7 UUID carrying the time's milliseconds", () => {
    const at = new Date("2026-11-28T20:45:01.234Z");
    const id = timeOrderedUuid(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at.getTime());
  });

  it("sorts by time, as text too, and stays unique within one millisecond", () => {
    const base = Date.parse("2026-11-28T20:45:00Z");
    const ids = Array.from({ length: 2000 }, (_, i) => timeOrderedUuid(new Date(base + Math.floor(i / 100))));
    for (let i = 100; i < ids.length; i += 100) expect(ids[i - 1]! < ids[i]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
