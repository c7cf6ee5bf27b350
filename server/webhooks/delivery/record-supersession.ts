// Records a claimed delivery as superseded — not sent, or not sent again, because its integration's
// accepted /about declaration is of another major version (Versioning rule 3, Delivery rule 7,
// decision 0049) — and, in the SAME transaction under the incident's row lock, cuts its lane over
// (the planner's cutOverLane, which the worker is handed: outbox/lane-cutover.ts): the lane's other
// queued events of the old contract are superseded too, and the incident's create-and-track sequence under the accepted contract is
// planned unless it is queued already. The deliverer decides from its cached target (a second old
// at most); the transaction decides again from the declaration it reads: when that is not another
// major after all (or is no longer accepted), `otherwise` is recorded instead, as it would have been.
//
// Rare (once per lane at a cutover), so a transaction of several statements is affordable here,
// as for expiry, unlike recordOutcome's batched hot path.
import type { DbClient } from "../../platform/db/client.ts";
import { inSqlTransaction } from "../../platform/db/sql-transaction.ts";
import type { CutOverLane, LaneCutover } from "../outbox/lane-cutover.ts";
import type { ClaimedDelivery } from "../outbox/outbox-row.ts";
import { recordOutcomeInTransaction, type AttemptRecord, type Outcome } from "./record-outcome.ts";

export type Supersession = { state: "superseded"; cutover: LaneCutover } | { state: Outcome["state"]; cutover: null };

/** Null when the claim was lost (another worker re-claimed the row: nothing was changed). */
export async function recordSupersession(
  db: DbClient,
  options: {
    delivery: ClaimedDelivery;
    workerId: string;
    now: Date;
    attempt: AttemptRecord | null;
    otherwise: Exclude<Outcome, { state: "superseded" }>;
    cutOverLane: CutOverLane;
  },
): Promise<Supersession | null> {
  const { delivery: row, now, otherwise, cutOverLane } = options;
  return inSqlTransaction(db, async (tx) => {
    let claimLost = false;
    const cutover = await cutOverLane(tx, {
      integrationKey: row.integrationKey,
      incidentId: row.incidentId,
      now,
      claimed: {
        id: row.id,
        path: row.path,
        supersede: async () => {
          const applied = await recordOutcomeInTransaction(tx, { ...options, outcome: { state: "superseded" } });
          claimLost = !applied;
          return applied;
        },
      },
    });
    if (claimLost) return null;
    if (cutover) return { state: "superseded", cutover };
    if (!(await recordOutcomeInTransaction(tx, { ...options, outcome: otherwise }))) return null;
    return { state: otherwise.state, cutover: null };
  });
}
