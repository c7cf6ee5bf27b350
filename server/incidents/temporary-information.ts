// A caller's temporary-information warning (e.g. "gas leak in the building until
// 18:00"). The v3 snapshot has no member for it: "a warning formerly in a
// temporary-information member is merged into medicData.notes.caller while
// unexpired" (spec, "Webhook incident snapshot (v3)"). The warning and the
// caller's own notes live in the incident's internal state; the snapshot carries
// the merge until the warning expires on the workbench clock, when the worker's
// change restores the caller's own notes (each a caller.changed, so receivers
// see the note appear and go).
import type { Clock } from "../platform/clock/clock.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { applyIncidentChange } from "./apply-change.ts";
import type { TemporaryWarning } from "./incident-state.ts";
import type { IncidentOperation } from "./change-types.ts";
import type { TMedicData } from "./snapshot.schema.ts";

type Temporary = TemporaryWarning;

export const TEMPORARY_INFORMATION_PREFIX = "Temporary information: ";

/** medicData.notes.caller while a warning is unexpired: the caller's notes, then the warning. */
export function mergeCallerNotes(callerNotes: string | null, warning: string): string {
  return [callerNotes, `${TEMPORARY_INFORMATION_PREFIX}${warning}`].filter((s): s is string => !!s).join("\n");
}

export function emptyMedicData(): TMedicData {
  const no = { reported: false };
  return {
    person: { sex: null, height: null, weight: null, yearOfBirth: null },
    conditions: {
      diabetes: no,
      epilepsy: no,
      heart: no,
      lungs: no,
      psychiatric: no,
      description: null,
      pregnancy: { reported: false, description: null },
    },
    assistance: { hearing: no, vision: no, speech: no, description: null },
    notes: { caller: null },
    medications: null,
    allergies: null,
    organDonation: { status: "Unknown", description: null },
    advanceDirectives: null,
  };
}

/** The snapshot's medicData for the caller's own `medicData` with `temporary` merged in (or not, once expired). */
export function withTemporaryInformation(
  medicData: TMedicData | null,
  temporary: Temporary | undefined,
): TMedicData | null {
  if (!temporary) return medicData;
  const base = medicData ?? emptyMedicData();
  return { ...base, notes: { caller: mergeCallerNotes(temporary.callerNotes, temporary.warning) } };
}

/** The caller's own medicData under `temporary`, as before the warning: its notes unmerged, null if it had none. */
export function withoutTemporaryInformation(medicData: TMedicData | null, temporary: Temporary): TMedicData | null {
  if (temporary.medicDataAdded) return null;
  return medicData && { ...medicData, notes: { caller: temporary.callerNotes } };
}

/** The caller reports a warning valid for `validForS` seconds of workbench time (a new one replaces the previous). */
export const setTemporaryInformation = (o: IncidentOperation & { warning: string; validForS: number }) =>
  applyIncidentChange({
    ...o,
    mutate: ({ incident, now }) => {
      const previous = incident.internal.temporaryInformation;
      const medicData = incident.snapshot.caller.medicData;
      // The caller's own data: as stored under a previous warning, else what the snapshot holds now.
      const callerNotes = previous ? previous.callerNotes : (medicData?.notes.caller ?? null);
      const medicDataAdded = previous ? previous.medicDataAdded : medicData === null;
      const temporary: Temporary = {
        warning: o.warning,
        expiresAtUtc: new Date(now.getTime() + o.validForS * 1000).toISOString(),
        callerNotes,
        medicDataAdded,
      };
      incident.internal.temporaryInformation = temporary;
      incident.snapshot.caller.medicData = withTemporaryInformation(medicData, temporary);
      return {
        changes: [{ kind: "caller.changed", what: "medicData.notes.caller (temporary information)" }],
        result: { expiresAtUtc: temporary.expiresAtUtc },
      };
    },
  });

/** Removes an expired warning from the snapshot (no-op while unexpired or when there is none). */
export const expireTemporaryInformation = (o: IncidentOperation) =>
  applyIncidentChange({
    ...o,
    mutate: ({ incident, now }) => {
      const temporary = incident.internal.temporaryInformation;
      if (!temporary || Date.parse(temporary.expiresAtUtc) > now.getTime()) return { changes: [], result: false };
      delete incident.internal.temporaryInformation;
      incident.snapshot.caller.medicData = withoutTemporaryInformation(incident.snapshot.caller.medicData, temporary);
      return {
        changes: [{ kind: "caller.changed", what: "medicData.notes.caller (temporary information expired)" }],
        result: true,
      };
    },
  });

/** Every open incident whose warning has expired on the workbench clock. Returns how many were updated. */
export async function expireDueTemporaryInformation(options: { db: DbClient; clock: Clock }): Promise<number> {
  const now = options.clock.now();
  const due = await options.db.$queryRaw<Array<{ id: string }>>(Prisma.sql`
    SELECT id::text AS id FROM "Incident"
    WHERE "closedAt" IS NULL AND internal->'temporaryInformation' IS NOT NULL
      AND (internal->'temporaryInformation'->>'expiresAtUtc')::timestamptz <= ${now}::timestamptz
    LIMIT 100`);
  let expired = 0;
  for (const { id } of due) {
    const r = await expireTemporaryInformation({
      db: options.db,
      clock: options.clock,
      incidentId: id,
      actor: "system",
    }).catch(() => undefined);
    if (r?.result) expired += 1;
  }
  return expired;
}
