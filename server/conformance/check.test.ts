import { describe, expect, it } from "vitest";
import { verdictOf } from "./check.ts";
import { p95 } from "./checks/delivery-checks.ts";
import { declares, isV3Version, legacyMajorOf, ZAbout } from "./about.schema.ts";
import { CONFORMANCE_CHECKS, LEGACY_CONFORMANCE_CHECKS, checksForVersion } from "./conformance-checks.ts";
import { sharedDiscoveryChecks } from "./checks/discovery-checks.ts";

describe("verdict", () => {
  it("fails only on a failed or errored required check", () => {
    expect(
      verdictOf([
        { required: true, outcome: "pass" },
        { required: false, outcome: "fail" },
        { required: true, outcome: "skipped" },
      ]),
    ).toBe("passed");
    expect(verdictOf([{ required: true, outcome: "fail" }])).toBe("failed");
    expect(verdictOf([{ required: true, outcome: "error" }])).toBe("failed");
  });
});

describe("p95 (nearest rank)", () => {
  it("takes the value at rank ceil(0.95 n)", () => {
    expect(p95([])).toBe(0);
    expect(p95(Array.from({ length: 20 }, (_, i) => i + 1))).toBe(19);
    expect(p95(Array.from({ length: 100 }, (_, i) => 100 - i))).toBe(95);
    expect(p95([5, 1200, 3])).toBe(1200);
  });
});

describe("about declaration", () => {
  it("reads nested flags; a missing flag is unsupported", () => {
    const about = ZAbout.parse({
      version: "3.1",
      supports: { incident: { created: true, caller: { trackReplaced: true, liveVideo: { ended: false } } } },
    });
    expect(declares(about, "created")).toBe(true);
    expect(declares(about, "caller.trackReplaced")).toBe(true);
    expect(declares(about, "caller.newLocation")).toBe(false);
    expect(declares(about, "caller.liveVideo.ended")).toBe(false);
    expect(declares(about, "involvedAgency.collaboration.changed")).toBe(false);
    expect(ZAbout.safeParse({ version: "3.0" }).success).toBe(false);
    expect(ZAbout.safeParse({ version: "3.0", supports: { incident: { created: "yes" } } }).success).toBe(false);
  });
  it("3.x is v3; 2.x and junk are not", () => {
    expect(["3", "3.0", "3.2.1"].map(isV3Version)).toEqual([true, true, true]);
    expect(["2.4", "30", "v3", "3.x"].map(isV3Version)).toEqual([false, false, false, false]);
  });
});

describe("plan by declared version", () => {
  it("1.x/2.x select the v2 checks; 3.x, junk and an unknown version the v3 ones", () => {
    expect(["2.0", "2", "1.3", " 2.1 "].map(legacyMajorOf)).toEqual([2, 2, 1, 2]);
    expect(["3.0", "20", "v2", "2.x", ""].map(legacyMajorOf)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(checksForVersion("2.0")).toBe(LEGACY_CONFORMANCE_CHECKS);
    expect(checksForVersion("1.0")).toBe(LEGACY_CONFORMANCE_CHECKS);
    for (const v of ["3.0", "4.0", null, undefined]) expect(checksForVersion(v)).toBe(CONFORMANCE_CHECKS);
  });
  it("both plans start with the shared discovery checks (a run switches after them), and no id repeats", () => {
    for (const plan of [CONFORMANCE_CHECKS, LEGACY_CONFORMANCE_CHECKS]) {
      expect(plan.slice(0, sharedDiscoveryChecks.length)).toEqual(sharedDiscoveryChecks);
      expect(new Set(plan.map((c) => c.id)).size).toBe(plan.length);
    }
    expect(
      LEGACY_CONFORMANCE_CHECKS.filter((c) => c.group === "tokens")
        .map((c) => c.id)
        .every((id) => id.startsWith("v2.token.")),
    ).toBe(true);
  });
});
