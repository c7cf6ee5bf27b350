// The contract between the incident aggregate (inbound API, simulator) and its
// consumers (the webhook engine's planner, the dashboard's live view).
//
// Every accepted change to an incident is recorded as one IncidentChange, in the
// same statement as the change itself, and handed to every registered
// subscriber, whose writes ride in that statement too. The webhook engine
// subscribes and plans its deliveries (transactional outbox), so a change and
// its deliveries commit or roll back together.
import type { TraceContext } from "../platform/tracing/tracing.ts";
import { Prisma } from "../platform/db/client.ts";
import type { SqlTx } from "../platform/db/sql-transaction.ts";
import type { TIncidentSnapshotV3, TLocation, TLocationSource } from "./snapshot.schema.ts";
import type { TemporaryWarning } from "./incident-state.ts";
import { processSingleton } from "../platform/process-singleton.ts";

/**
 * What changed. One kind per row of the spec's "Which change produces which
 * operation" table; the planner maps kinds to receiver routes per capability.
 */
export type IncidentChangeKind =
  | { kind: "incident.created" }
  | { kind: "incident.closed"; closedAtUtc: string }
  /** Caller data no specific route expresses: a data source linked, medical data, permanent residence, languages, contacts, email, insurance, reported problems. */
  | { kind: "caller.changed"; what: string }
  | { kind: "caller.fullNameChanged" }
  | { kind: "caller.phoneNumberChanged" }
  | { kind: "caller.deviceInfoChanged" }
  /** One location appended to the end of `source`'s track. */
  | { kind: "caller.newLocation"; source: TLocationSource; location: TLocation }
  /** `source`'s whole track replaced (e.g. a coarse fix discarded for a precise one). */
  | { kind: "caller.trackReplaced"; source: TLocationSource }
  | { kind: "caller.chat.activated" }
  | { kind: "caller.liveVideo.activated" }
  | { kind: "caller.liveVideo.ended" }
  /** An agency newly involved (Pending invitation). */
  | { kind: "involvedAgency.invited"; agencyId: string }
  | { kind: "involvedAgency.collaboration.changed"; agencyId: string }
  | { kind: "labelChanged" }
  | { kind: "summaryChanged" }
  | { kind: "callSignChanged" }
  | { kind: "patient.descriptionChanged" };

export type IncidentChange = IncidentChangeKind & {
  incidentId: string;
  /** 1, 2, 3 … per incident, in commit order (a change is written only on the version it read: apply-change.ts). */
  seq: number;
  /** When the platform produced the change (workbench clock): starts each event's one-hour window. */
  producedAt: Date;
  /** Who caused it: "inbound:<clientId>", "simulator", "system", … (shown in the timeline). */
  actor: string;
  /** The whole v3 snapshot after the change (every member present). */
  snapshot: TIncidentSnapshotV3;
  /**
   * The caller's temporary-information warning after the change, if any: v3 merges it into the
   * snapshot's notes, the v2 contract has a member of its own for it (decision 0063). Absent: none.
   */
  temporaryInformation?: TemporaryWarning | null;
};

/**
 * A consumer of changes, run with the change's own write so that it adds no
 * round trip of its own to the aggregate's hot path, in three steps:
 * - `prefetch`: a scalar subquery evaluated in the aggregate's read statement
 *   for each incident read (`incidentId` is an SQL expression: the row's id),
 *   e.g. the webhook lanes;
 * - `plan`: given one incident's changes (seq order) and that value, the
 *   consumer's plan for them (data, or null: nothing to write). `prefetched` is
 *   undefined when the read may be stale (a locked read that waited for a
 *   concurrent writer of the subscriber's state): the subscriber then reads
 *   again through `tx`;
 * - `write`: the plans of one or more incidents as CTEs of the aggregate's
 *   record statement (which writes the changes of several incidents at once,
 *   apply-change.ts), and `committed` once they committed.
 */
export type ChangeSubscriber = {
  name: string;
  prefetch?: (incidentId: Prisma.Sql) => Prisma.Sql;
  /**
   * `fullTracks`: the changes' snapshot may hold, per track, only the positions this
   * transaction added (track-storage.ts, lazy tracks); a subscriber that needs whole
   * tracks awaits it first (it fills them in place, once). Absent: tracks are whole.
   * `trace`: with tracing on, the change's span, the parent of any span of the subscriber's own.
   */
  plan: (
    tx: SqlTx,
    changes: IncidentChange[],
    prefetched: unknown,
    fullTracks?: () => Promise<void>,
    trace?: TraceContext,
  ) => Promise<unknown | null>;
  /** Comma-separated CTEs `name AS (…)` (names unique to the subscriber) writing `plans`, and a scalar expression over them for `committed`. Absent: the subscriber never plans writes (its plan is null). */
  write?: (plans: unknown[]) => PlannedWrite;
  /**
   * With `prefetch`: what the prefetch would read once `plan` (this subscriber's plan of a change
   * prepared on `prefetched`, or null) has committed, so that the incident's next change can start
   * from it (recent-incidents.ts). Undefined: unknown, the next change reads it.
   */
  nextPrefetch?: (prefetched: unknown, plan: unknown | null) => unknown;
};

/** Writes to send with the change records, and what to do once they committed. */
export type PlannedWrite = {
  /** Each data-modifying CTE writes only rows of incidents whose change applied: `WHERE ${appliedTo(Prisma.sql`x."incidentId"`)}`. */
  ctes: Prisma.Sql;
  /** A scalar expression over those CTEs, handed to `committed`. */
  result: Prisma.Sql;
  /** Run after the transaction committed (tx.afterCommit), with `result`'s value. */
  committed?: (result: unknown) => void;
};

/**
 * The record statement defines a CTE `applied` first: the ids of the incidents
 * whose change it writes. An optimistic change whose incident changed since its
 * read is not among them (apply-change.ts), and nothing of it may be written:
 * data-modifying CTEs always run, so each filters on this.
 */
export const appliedTo = (incidentId: Prisma.Sql) => Prisma.sql`${incidentId} IN (SELECT id FROM applied)`;

// On globalThis, not in module scope: Next bundles app/ separately, so a change
// made through tRPC runs a second copy of this module, and must still reach the
// subscribers main.ts registered.
const subscribers = processSingleton<ChangeSubscriber[]>("change-subscribers", () => []);

/** Registers a consumer run inside every change's transaction (the webhook planner is one). */
export function subscribeToChanges(subscriber: ChangeSubscriber): () => void {
  subscribers.push(subscriber);
  return () => {
    const i = subscribers.indexOf(subscriber);
    if (i >= 0) subscribers.splice(i, 1);
  };
}

export function changeSubscribers(): readonly ChangeSubscriber[] {
  return subscribers;
}

/**
 * Runs every subscriber for changes already recorded in `tx` (incident
 * creation, tests, benches), each reading and writing in statements of its own.
 */
export async function notifyChangeSubscribers(tx: SqlTx, changes: IncidentChange[]): Promise<void> {
  for (const subscriber of subscribers) {
    const plan = await subscriber.plan(tx, changes, undefined);
    if (plan !== null && subscriber.write)
      await executePlannedWrite(tx, changes[0]!.incidentId, subscriber.write([plan]));
  }
}

/** A planned write of one incident in a statement of its own (not riding on the record statement); `committed` runs after commit. Returns `result`'s value. */
export async function executePlannedWrite(tx: SqlTx, incidentId: string, write: PlannedWrite): Promise<unknown> {
  const [row] = await tx.query<{ result: unknown }>(
    Prisma.sql`WITH applied AS (SELECT ${incidentId}::uuid AS id), ${write.ctes} SELECT ${write.result} AS result`,
  );
  if (write.committed) tx.afterCommit(() => write.committed!(row?.result));
  return row?.result;
}
