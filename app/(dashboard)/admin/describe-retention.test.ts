import { describe, expect, it } from "vitest";
import { describePruned, formatBytes, formatRows } from "./describe-retention";

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [8192, "8.0 KiB"],
    [5_452_595, "5.2 MiB"],
    [3 * 1024 ** 3, "3.0 GiB"],
    [-1, "—"],
    [Number.NaN, "—"],
  ])("%d → %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe("formatRows", () => {
  it("is exact below the cap and says so above it", () => {
    expect(formatRows(12_345, false, 100_000)).toBe("12,345");
    expect(formatRows(100_001, true, 100_000)).toBe("more than 100,000");
  });
});

describe("describePruned", () => {
  it("names each kind pruned, singular or plural, in a fixed order", () => {
    expect(describePruned({ conformanceRuns: 1, deliveries: 1200, receiverRecords: 0, signInArtefacts: 2 })).toBe(
      "1,200 deliveries, 1 conformance run, 2 sign-in artefacts",
    );
  });
  it("says nothing was pruned", () => {
    expect(describePruned({ deliveries: 0 })).toBe("nothing");
  });
});
