// Delivery rule 5 (re-send after an outage) and the cutover's introduction: the incident's
// create-and-track sequence from its current snapshot, and its close if closed, planned for one
// integration or all, under the incident's row lock.
import { Prisma } from "../../platform/db/client.ts";
import type { SqlTx } from "../../platform/db/sql-transaction.ts";
import type { TemporaryWarning } from "../../incidents/incident-state.ts";
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import { currentSnapshotSql } from "../../incidents/track-storage.ts";
import type { PlannedRow } from "../outbox/outbox-row.ts";
import { loadPlanningTargets } from "./load-targets.ts";
import { planResendSequence } from "./plan-events.ts";
import { planLegacyIntroduction } from "./plan-legacy-events.ts";
import { toPlanData } from "./plan-deliveries.ts";
import { writePlan } from "./write-planned-deliveries.ts";

/** Rule 5: after an outage, re-send the incident's create-and-track sequence, and its close if closed (to one integration or all). */
export async function planResend(
  tx: SqlTx,
  options: { incidentId: string; integrationKey?: string; now: Date },
): Promise<PlannedRow[]> {
  // Takes the incident's row lock and bumps planEpoch: lanes are written only under it (apply-change.ts).
  const [locked] = await tx.query<{
    lastSeq: number;
    closedAt: Date | null;
    temporaryInformation: TemporaryWarning | null;
  }>(Prisma.sql`
    UPDATE "Incident" SET "planEpoch" = "planEpoch" + 1 WHERE id = ${options.incidentId}::uuid
    RETURNING "lastSeq", "closedAt", internal->'temporaryInformation' AS "temporaryInformation"`);
  if (!locked) return [];
  const seq = locked.lastSeq;
  // Read after the lock is held: a statement of its own sees the positions of any writer it waited for.
  const [current] = await tx.query<{ snapshot: TIncidentSnapshotV3 }>(Prisma.sql`
    SELECT ${currentSnapshotSql("i")} AS snapshot FROM "Incident" i WHERE i.id = ${options.incidentId}::uuid`);
  const snapshot = current!.snapshot;
  const agencyIds = snapshot.involvedAgencies.filter((a) => a.collaboration !== "Declined").map((a) => a.id);
  const targets = await loadPlanningTargets(tx, {
    incidentId: options.incidentId,
    agencyIds,
    integrationKey: options.integrationKey,
  });
  const closedAtUtc = locked.closedAt?.toISOString() ?? null;
  // The create-and-track sequence (and the close, for a closed incident): v3's, or v1/v2's legacy introduction.
  // An integration without an accepted declaration gets nothing planned against a guess: its lane's
  // held changes (if any) are planned, create-and-track sequence first, once one is accepted.
  const plans = targets
    .filter((target) => !target.held && target.heldFromSeq === null)
    .map((target) => ({
      target,
      plan:
        target.major === 3
          ? planResendSequence(snapshot, target.flags, closedAtUtc)
          : planLegacyIntroduction({
              snapshot,
              seq,
              now: options.now,
              major: target.major,
              closedAtUtc,
              temporaryInformation: locked.temporaryInformation,
            }),
    }));
  const data = toPlanData(options.incidentId, [{ seq, producedAt: options.now, plans }]);
  return data ? writePlan(tx, data) : [];
}
