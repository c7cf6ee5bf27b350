import { describe, expect, it } from "vitest";
import { formatReceiverFaultMode, parseReceiverFaultMode } from "../reference-receiver/faults.ts";
import { describeFault, parseStartTime } from "./integration-faults.ts";

const T0 = Date.UTC(2026, 10, 22, 6, 0);

describe("receiver fault modes", () => {
  it("parses every mode of the CLI and refuses others", () => {
    for (const m of [
      "ok",
      "http-500",
      "http-503",
      "http-201",
      "timeout",
      "reject-token",
      "down",
      "slow:1500",
      "flaky:30",
    ]) {
      expect(formatReceiverFaultMode(parseReceiverFaultMode(m)!)).toBe(m);
    }
    for (const bad of ["http-404", "slow:", "slow:abc", "flaky:101", "flaky:-1", "DOWN", ""])
      expect(parseReceiverFaultMode(bad)).toBeUndefined();
  });
});

describe("describeFault on the workbench clock", () => {
  it("is active with the remaining time until endsAt, and gone after", () => {
    const fault = { mode: "http-503", startsAt: new Date(T0), endsAt: new Date(T0 + 600_000) };
    expect(describeFault(fault, T0 + 60_000)).toMatchObject({
      state: "active",
      mode: "http-503",
      remainingMs: 540_000,
    });
    expect(describeFault(fault, T0 + 600_000)).toMatchObject({ state: "none", mode: "ok" });
  });

  it("an outage window ahead is scheduled (remaining = time until it starts), then active, then over", () => {
    const fault = { mode: "down", startsAt: new Date(T0 + 300_000), endsAt: new Date(T0 + 900_000) };
    expect(describeFault(fault, T0)).toMatchObject({ state: "scheduled", remainingMs: 300_000 });
    expect(describeFault(fault, T0 + 300_000)).toMatchObject({ state: "active", remainingMs: 600_000 });
    expect(describeFault(fault, T0 + 900_001).state).toBe("none");
  });

  it("open-ended faults have no remaining time; ok is no fault", () => {
    expect(describeFault({ mode: "timeout", startsAt: new Date(T0), endsAt: null }, T0 + 1e9)).toMatchObject({
      state: "active",
      remainingMs: null,
    });
    expect(describeFault({ mode: "ok", startsAt: null, endsAt: null }, T0).state).toBe("none");
    expect(describeFault(null, T0).state).toBe("none");
  });

  it("reads start times as +duration or ISO timestamps", () => {
    expect(parseStartTime("+5m", T0)).toBe(T0 + 300_000);
    expect(parseStartTime("2026-11-22T07:00:00Z", T0)).toBe(Date.UTC(2026, 10, 22, 7));
    expect(parseStartTime("tomorrow", T0)).toBeUndefined();
  });
});
