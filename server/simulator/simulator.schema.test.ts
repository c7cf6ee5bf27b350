// Blank text never reaches a snapshot from the simulator: the same rule as the
// inbound API's PATCH rule 1 (empty or whitespace-only is refused), through the
// snapshot's own text schemas.
import { describe, expect, it } from "vitest";
import { ZIncidentSnapshotV3 } from "../incidents/snapshot.schema.ts";
import { buildSnapshot } from "../webhooks/testing/build-change.ts";
import { sampleMedicData } from "./sample-caller-data.ts";
import { ZRaiseIncidentInput, ZSimulatorAction } from "./simulator.schema.ts";

const BLANKS = ["", " ", "  \t\n "];

describe("simulator inputs refuse blank text", () => {
  it.each(BLANKS)("label %j on raise", (blank) => {
    expect(ZRaiseIncidentInput.safeParse({ origin: "Demo", label: blank }).success).toBe(false);
    expect(ZRaiseIncidentInput.safeParse({ origin: "Demo", label: null }).success).toBe(true);
    expect(ZRaiseIncidentInput.safeParse({ origin: "Demo", label: " Fall " }).success).toBe(true);
  });

  it.each(BLANKS)("full name, operating system, chat message and medical notes %j", (blank) => {
    expect(ZSimulatorAction.safeParse({ action: "fullName", fullName: blank }).success).toBe(false);
    expect(
      ZSimulatorAction.safeParse({
        action: "deviceInfo",
        batteryLevel: 50,
        internetConnectionType: null,
        operatingSystem: blank,
      }).success,
    ).toBe(false);
    expect(ZSimulatorAction.safeParse({ action: "chatMessage", text: blank }).success).toBe(false);
    expect(
      ZSimulatorAction.safeParse({ action: "temporaryInformation", warning: blank, validForMinutes: 10 }).success,
    ).toBe(false);
    expect(
      ZSimulatorAction.safeParse({ action: "temporaryInformation", warning: "Gas leak", validForMinutes: 10 }).success,
    ).toBe(true);
    const medicData = sampleMedicData();
    expect(ZSimulatorAction.safeParse({ action: "medicData", medicData }).success).toBe(true);
    expect(
      ZSimulatorAction.safeParse({ action: "medicData", medicData: { ...medicData, notes: { caller: blank } } })
        .success,
    ).toBe(false);
    expect(
      ZSimulatorAction.safeParse({ action: "medicData", medicData: { ...medicData, allergies: blank } }).success,
    ).toBe(false);
  });
});

describe("the v3 snapshot schema refuses blank text (what the engine sends is validated against it)", () => {
  it.each(["label", "summary", "callSign"] as const)("%s", (member) => {
    const snapshot = buildSnapshot({ id: "0e7f0000-0000-4000-8000-0000000000b1" });
    expect(ZIncidentSnapshotV3.safeParse({ ...snapshot, [member]: "x" }).success).toBe(true);
    expect(ZIncidentSnapshotV3.safeParse({ ...snapshot, [member]: " " }).success).toBe(false);
    expect(ZIncidentSnapshotV3.safeParse({ ...snapshot, caller: { ...snapshot.caller, fullName: " " } }).success).toBe(
      false,
    );
  });
});
