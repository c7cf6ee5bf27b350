// The contract between the incident aggregate (inbound API, simulator) and its
// consumers (the webhook engine's planner, the dashboard's live view).
//
// Every accepted change to an incident is recorded as one IncidentChange, in the
// same transaction as the change itself, and handed — inside that transaction —
// to every registered subscriber. The webhook engine subscribes and plans its
// deliveries (transactional outbox), so a change and its deliveries commit or
// roll back together.
import { Prisma } from "../platform/db/client.ts";
import type { SqlTx } from "../platform/db/sql-transaction.ts";
import type { TIncidentSnapshotV3, TLocation, TLocationSource } from "./snapshot.schema.ts";

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
  | { kind: "caller.locationAdded"; source: TLocationSource; location: TLocation }
  /** `source`'s whole track replaced (e.g. a coarse fix discarded for a precise one). */
  | { kind: "caller.trackReplaced"; source: TLocationSource }
  | { kind: "caller.chatActivated" }
  | { kind: "caller.liveVideoActivated" }
  | { kind: "caller.liveVideoEnded" }
  /** An agency newly involved (Pending invitation). */
  | { kind: "involvedAgency.invited"; agencyId: string }
  | { kind: "involvedAgency.collaborationChanged"; agencyId: string }
  | { kind: "labelChanged" }
  | { kind: "summaryChanged" }
  | { kind: "callSignChanged" }
  | { kind: "patient.descriptionChanged" };

export type IncidentChange = IncidentChangeKind & {
  incidentId: string;
  /** 1, 2, 3 … per incident, in commit order (the aggregate holds the incident row lock). */
  seq: number;
  /** When the platform produced the change (workbench clock): starts each event's one-hour window. */
  producedAt: Date;
  /** Who caused it: "inbound:<clientId>", "simulator", "system", … (shown in the timeline). */
  actor: string;
  /** The whole v3 snapshot after the change (every member present). */
  snapshot: TIncidentSnapshotV3;
};

/**
 * A consumer of changes, run inside the change's transaction in two phases so
 * that it adds no round trip of its own to the aggregate's hot path:
 * - `prefetch`: a scalar subquery evaluated in the aggregate's lock statement
 *   (what the consumer must read before planning, e.g. the webhook lanes);
 * - `plan`: given the transaction's changes (seq order) and that value, the
 *   consumer's writes as CTEs, which the aggregate sends in the same statement
 *   as the change records. `prefetched` is undefined when the read may be stale
 *   (the lock waited for a concurrent writer of the subscriber's state): the
 *   subscriber then reads again through `tx`.
 */
export type ChangeSubscriber = {
  name: string;
  prefetch?: (incidentId: string) => Prisma.Sql;
  /**
   * `fullTracks`: the changes' snapshot may hold, per track, only the positions this
   * transaction added (track-storage.ts, lazy tracks); a subscriber that needs whole
   * tracks awaits it first (it fills them in place, once). Absent: tracks are whole.
   */
  plan: (tx: SqlTx, changes: IncidentChange[], prefetched: unknown, fullTracks?: () => Promise<void>) => Promise<PlannedWrite | null>;
};

/** Writes to send with the change records, and what to do once they committed. */
export type PlannedWrite = {
  /** Comma-separated CTEs `name AS (…)`; names must be unique to the subscriber. */
  ctes: Prisma.Sql;
  /** A scalar expression over those CTEs, handed to `committed`. */
  result: Prisma.Sql;
  /** Run after the transaction committed (tx.afterCommit), with `result`'s value. */
  committed?: (result: unknown) => void;
};

// On globalThis, not in module scope: Next bundles app/ separately, so a change
// made through tRPC runs a second copy of this module, and must still reach the
// subscribers main.ts registered.
const SLOT = Symbol.for("incident-workbench.change-subscribers");
const holder = globalThis as typeof globalThis & { [SLOT]?: ChangeSubscriber[] };
const subscribers: ChangeSubscriber[] = (holder[SLOT] ??= []);

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
    const write = await subscriber.plan(tx, changes, undefined);
    if (write) await executePlannedWrite(tx, write);
  }
}

/** A planned write in a statement of its own (not riding on the record statement); `committed` runs after commit. Returns `result`'s value. */
export async function executePlannedWrite(tx: SqlTx, write: PlannedWrite): Promise<unknown> {
  const [row] = await tx.query<{ result: unknown }>(Prisma.sql`WITH ${write.ctes} SELECT ${write.result} AS result`);
  if (write.committed) tx.afterCommit(() => write.committed!(row?.result));
  return row?.result;
}
