import { describe, expect, it } from "vitest";
import { REPORTED_PROBLEMS } from "@/server/incidents/snapshot.schema";
import { formatUtc, languageName, PROBLEM_LABELS } from "./labels";

describe("snapshot labels", () => {
  it("names all thirteen reported problems", () => {
    expect(Object.keys(PROBLEM_LABELS).sort()).toEqual([...REPORTED_PROBLEMS].sort());
  });
  it("formats UTC times and passes null through", () => {
    expect(formatUtc("2026-11-22T06:00:00.123Z")).toBe("2026-11-22 06:00:00Z");
    expect(formatUtc(null)).toBeNull();
  });
  it("names languages and survives malformed tags", () => {
    expect(languageName("de")).toBe("German (de)");
    expect(languageName("not a tag!")).toBe("not a tag!");
  });
});
