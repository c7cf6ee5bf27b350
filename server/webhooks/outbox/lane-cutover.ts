// A lane cut over (Versioning rule 3, Delivery rule 7, decision 0049): its queued events of another
// contract superseded, and the incident's create-and-track sequence planned under the accepted one.
// Planning cuts a lane over (planning/supersede-queued-events.ts); the deliverer, meeting an event
// of another contract, has it done in the transaction that records the event superseded
// (delivery/record-supersession.ts). The engine's composition root hands the delivery worker the
// planner's function (start-webhook-engine.ts), so delivery never imports planning (decision 0060).
import type { SqlTx } from "../../platform/db/sql-transaction.ts";
import type { Runtime } from "../../runtime.ts";
import type { PlannedRow } from "./outbox-row.ts";

export type SupersededRow = { id: string; requestId: string; method: string; path: string; attemptCount: number };

export type LaneCutover = {
  incidentId: string;
  acceptedMajor: 1 | 2 | 3;
  /** Queued events of another contract, superseded unsent (the claimed one, if any, not included). */
  superseded: SupersededRow[];
  /** The create-and-track sequence planned under the accepted contract (empty: none needed). */
  introduced: PlannedRow[];
};

/**
 * One lane, inside a transaction. `claimed`: an event of this lane the caller holds claimed (the
 * deliverer), superseded by `supersede` (which records it, guarded by its claim) only when the
 * accepted declaration's major is not its contract. Null: nothing done — no accepted declaration,
 * the incident gone, or the claimed event not to be superseded (its claim lost, or its contract is
 * the accepted one after all).
 */
export type CutOverLane = (
  tx: SqlTx,
  options: {
    integrationKey: string;
    incidentId: string;
    now: Date;
    claimed?: { id: bigint; path: string; supersede: () => Promise<boolean> };
  },
) => Promise<LaneCutover | null>;

export function logCutover(runtime: Pick<Runtime, "logger">, integrationKey: string, outcome: LaneCutover): void {
  if (!outcome.superseded.length && !outcome.introduced.length) return;
  runtime.logger.info(
    {
      integration: integrationKey,
      incidentId: outcome.incidentId,
      major: outcome.acceptedMajor,
      superseded: outcome.superseded.length,
      introduced: outcome.introduced.length,
    },
    "queued webhook events of another major version superseded; the incident is sent anew under the accepted one",
  );
}
