// v2's temporaryInformation from the warning the workbench keeps (decision 0063): v3 merges the
// warning into medicData.notes.caller while unexpired; the frozen v2 contract has a member of its
// own, so a v2 body carries the warning there and the caller's own notes, without it, in
// medicalData.other.
import { describe, expect, it } from "vitest";
import type { TemporaryWarning } from "../../incidents/incident-state.ts";
import { emptyMedicData, withTemporaryInformation } from "../../incidents/temporary-information.ts";
import { buildSnapshot } from "../../webhooks/testing/build-change.ts";
import { ZIncidentV2 } from "./incident.schema.ts";
import { renderIncidentV2 } from "./render-incident.ts";

const AT = new Date("2026-11-22T06:00:00.000Z");
const warning = (over: Partial<TemporaryWarning> = {}): TemporaryWarning => ({
  warning: "Gas leak in the building",
  expiresAtUtc: "2026-11-22T06:30:00.000Z",
  callerNotes: "Uses a wheelchair",
  medicDataAdded: false,
  ...over,
});
/** The v3 snapshot as the aggregate holds it under `temporary`: the warning merged into the notes. */
function snapshotUnder(temporary: TemporaryWarning) {
  const s = buildSnapshot({ id: "7e2d0000-0000-4000-8000-000000000001" });
  const own = temporary.medicDataAdded ? null : { ...emptyMedicData(), notes: { caller: temporary.callerNotes } };
  s.caller.medicData = withTemporaryInformation(own, temporary);
  return s;
}

describe("v2 temporaryInformation", () => {
  it("carries the unexpired warning and its expiry; medicalData.other keeps only the caller's own notes", () => {
    const temporary = warning();
    const v2 = renderIncidentV2(snapshotUnder(temporary), AT, temporary);
    expect(v2.caller.temporaryInformation).toEqual({
      text: "Gas leak in the building",
      expiresAtUtc: "2026-11-22T06:30:00.000Z",
    });
    expect(v2.caller.medicalData?.other).toBe("Caller notes: Uses a wheelchair");
    expect(() => ZIncidentV2.parse(v2)).not.toThrow();
  });

  it("has no medicalData when the caller had none before the warning", () => {
    const temporary = warning({ callerNotes: null, medicDataAdded: true });
    const v2 = renderIncidentV2(snapshotUnder(temporary), AT, temporary);
    expect(v2.caller.temporaryInformation?.text).toBe("Gas leak in the building");
    expect(v2.caller.medicalData).toBeNull();
  });

  it("is null once the warning has expired at the event's production, or with no warning", () => {
    const temporary = warning({ expiresAtUtc: "2026-11-22T05:59:59.000Z" });
    const expired = renderIncidentV2(snapshotUnder(temporary), AT, temporary);
    expect(expired.caller.temporaryInformation).toBeNull();
    expect(expired.caller.medicalData?.other).toBe("Caller notes: Uses a wheelchair");
    expect(
      renderIncidentV2(buildSnapshot({ id: "7e2d0000-0000-4000-8000-000000000002" }), AT).caller.temporaryInformation,
    ).toBeNull();
  });
});
