import { describe, expect, it } from "vitest";
import { sortByActivity } from "./incident-activity.ts";

const row = (id: string, lastUpdateAtUtc: string, lastCallerMessageAtUtc: string | null = null) => ({
  id,
  lastUpdateAtUtc,
  lastCallerMessageAtUtc,
});

describe("sortByActivity", () => {
  it("puts the latest change or caller message first, ties by id", () => {
    const rows = [
      row("a", "2026-11-28T10:00:00.000Z"),
      row("b", "2026-11-28T09:00:00.000Z", "2026-11-28T10:05:00.000Z"),
      row("c", "2026-11-28T10:01:00.000Z"),
      row("d", "2026-11-28T10:01:00.000Z"),
    ];
    expect(sortByActivity(rows).map((r) => r.id)).toEqual(["b", "c", "d", "a"]);
  });
});
