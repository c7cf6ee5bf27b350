import { describe, expect, it } from "vitest";
import { SAMPLE_SNAPSHOT } from "@/app/(dashboard)/ui-kit/sample-snapshot";
import type { TCaller, TMedicData } from "@/server/incidents/snapshot.schema";
import { dataSourcesUsed } from "./data-sources-used";
import { incidentTitle, keyMedicalFlags, reportedProblemsOf } from "./describe-incident";
import { describeFix, describeLocation, formatAccuracy, latestLocation } from "./describe-location";

const caller = SAMPLE_SNAPSHOT.caller;
const fix = (source: "Aml" | "MobileApp", capturedAtUtc: string, accuracy = 6) =>
  ({
    type: "Measured",
    accuracy,
    altitude: null,
    altitudeAccuracy: null,
    latitude: 59.9624,
    longitude: -10.768,
    capturedAtUtc,
    receivedAtUtc: capturedAtUtc,
    source,
  }) as const;

describe("incidentTitle", () => {
  const none = { label: null, problems: [], callerName: null, callerPhone: null };
  it("prefers the label, then the reported problems, then the caller, and never shows an id", () => {
    expect(incidentTitle({ ...none, label: "Fall, elderly", problems: ["fall"] })).toBe("Fall, elderly");
    expect(incidentTitle({ ...none, problems: ["unconscious", "notBreathing"], callerName: "Ola" })).toBe(
      "Unconscious, not breathing",
    );
    expect(incidentTitle({ ...none, callerName: "Ola Nordmann", callerPhone: "+4795001122" })).toBe(
      "Call from Ola Nordmann",
    );
    expect(incidentTitle({ ...none, callerPhone: "+4795001122" })).toBe("Call from +4795001122");
    expect(incidentTitle(none)).toBe("Call, nothing reported yet");
  });
  it("lists only the problems that are reported", () => {
    const problems = { ...caller.reportedProblems, chestPain: false, fall: false, notBreathing: true, trapped: true };
    expect(reportedProblemsOf(problems)).toEqual(["notBreathing", "trapped"]);
  });
});

describe("keyMedicalFlags", () => {
  const medic = caller.medicData as TMedicData;
  it("names conditions, allergies and medications, and nothing that is not reported", () => {
    const flags = keyMedicalFlags({
      ...medic,
      conditions: { ...medic.conditions, heart: { reported: true }, diabetes: { reported: false } },
      allergies: "Penicillin",
      medications: "Metoprolol",
    }).map((f) => f.text);
    expect(flags).toContain("Heart condition");
    expect(flags).toContain("Allergy: Penicillin");
    expect(flags).toContain("Medications: Metoprolol");
    expect(flags).not.toContain("Diabetes");
  });
  it("puts the handset's crash detection first, and knows nothing without medical data", () => {
    const device = { ...caller.deviceInfo!, automaticDetections: { crashDetected: true, fallDetected: false } };
    expect(keyMedicalFlags(null, device)).toEqual([{ key: "crash", text: "Crash detected", tone: "danger" }]);
    expect(keyMedicalFlags(null)).toEqual([]);
  });
});

describe("latestLocation and its words", () => {
  it("takes the fix captured last of any source, not the last to arrive", () => {
    const tracks = [
      { source: "MobileApp" as const, track: [fix("MobileApp", "2026-11-28T10:00:05.000Z")] },
      { source: "Aml" as const, track: [fix("Aml", "2026-11-28T10:00:01.000Z", 60)] },
    ];
    expect(latestLocation(tracks)?.source).toBe("MobileApp");
    expect(latestLocation([])).toBeNull();
  });
  it("says coordinates with hemispheres, accuracy and source", () => {
    expect(describeLocation(fix("MobileApp", "2026-11-28T10:00:05.000Z"))).toBe(
      "59.96240° N, 10.76800° W ±6 m · Mobile app",
    );
    expect(formatAccuracy(fix("Aml", "2026-11-28T10:00:05.000Z", 1540))).toBe("±1.5 km");
    const entered = { type: "Known", latitude: 1, longitude: 2, capturedAtUtc: "", receivedAtUtc: "" } as const;
    expect(describeFix({ ...entered, source: "Entered" })).toBe("Entered, not measured");
    expect(describeFix({ ...entered, source: "WebApp" })).toBe("entered, not measured · Web app");
  });
});

describe("dataSourcesUsed", () => {
  const none: TCaller["dataSources"] = { mobileApp: null, webApp: null, appleEed: null, googleEls: null };
  it("counts a source as used when its positions are there, even if it never linked", () => {
    const rows = dataSourcesUsed(none, [
      { source: "MobileApp", track: [fix("MobileApp", "2026-11-28T10:00:05.000Z")] },
      { source: "Aml", track: [fix("Aml", "2026-11-28T10:00:01.000Z")] },
    ]);
    expect(rows.find((r) => r.name === "Mobile app")).toEqual({ name: "Mobile app", used: true, detail: "1 position" });
    expect(rows.find((r) => r.name === "Web app")?.used).toBe(false);
    expect(rows.find((r) => r.name === "AML")).toEqual({ name: "AML", used: true, detail: "1 position" });
  });
  it("keeps what a linked source declared", () => {
    const rows = dataSourcesUsed({ ...none, mobileApp: { appInfo: { name: "Emergency App", version: "4.2.0" } } }, []);
    expect(rows[0]).toEqual({ name: "Mobile app", used: true, detail: "Emergency App 4.2.0" });
  });
});
