// Writes the incident's new state, its change records (seq lastSeq+1 …) and
// every change subscriber's writes (the webhook planner's outbox rows) in ONE
// statement of the caller's transaction. Shared by applyIncidentChange and
// incident creation.
//
// Why one statement: each round trip to PostgreSQL costs the inbound hot path
// a socket write and a wake-up of the database backend on a 2-core machine;
// the snapshot is sent once, as a bound jsonb parameter, and the subscribers'
// CTEs ride along (change-record.ts, "two phases").
import { Prisma } from "../platform/db/client.ts";
import type { SqlTx } from "../platform/db/sql-transaction.ts";
import { changeSubscribers, type IncidentChange, type IncidentChangeKind, type PlannedWrite } from "./change-record.ts";
import type { IncidentState } from "./incident-state.ts";
import { toStoredSnapshot, trackDelta, trackDeltaCtes, type TrackDelta } from "./track-storage.ts";

/** Numbers the changes and bumps the incident's version (not on creation); pure. */
export function buildChanges(options: { incident: IncidentState; kinds: IncidentChangeKind[]; now: Date; actor: string; created?: boolean }): IncidentChange[] {
  const { incident, kinds, now, actor } = options;
  const firstSeq = incident.lastSeq + 1;
  incident.lastSeq += kinds.length;
  if (!options.created) incident.version += 1;
  return kinds.map((k, i) => ({ ...k, incidentId: incident.id, seq: firstSeq + i, producedAt: now, actor, snapshot: incident.snapshot }));
}

/**
 * Every registered subscriber plans the changes; `prefetched[i]` is what
 * subscriber i's prefetch read in the lock statement (undefined: read again).
 */
export async function planSubscribers(tx: SqlTx, changes: IncidentChange[], prefetched: unknown[] | undefined, fullTracks?: () => Promise<void>): Promise<PlannedWrite[]> {
  const writes: PlannedWrite[] = [];
  const subscribers = changeSubscribers();
  for (let i = 0; i < subscribers.length; i++) {
    const write = await subscribers[i]!.plan(tx, changes, prefetched?.[i], fullTracks);
    if (write) writes.push(write);
  }
  return writes;
}

/**
 * The one statement; `created`: the row was just inserted, only the records (and writes) are added.
 * `delta`: what the change did to the tracks (track-storage.ts), written as IncidentPosition rows;
 * the snapshot is written in its stored form (tracks as placeholders).
 */
export async function writeChanges(options: { tx: SqlTx; incident: IncidentState; changes: IncidentChange[]; writes: PlannedWrite[] } & ({ created: true } | { created?: false; delta: TrackDelta })): Promise<void> {
  const { tx, incident, changes, writes } = options;
  const first = changes[0];
  if (!first) return;
  const records = JSON.stringify(changes.map(({ incidentId, seq, producedAt, actor, snapshot, kind, ...payload }) => ({ seq, kind, payload })));
  const snapshot = JSON.stringify(toStoredSnapshot(incident.snapshot));
  const positions = trackDeltaCtes(incident.id, first.seq, options.created ? trackDelta(incident.snapshot.caller.tracks, undefined) : options.delta);
  const update = options.created ? Prisma.sql`SELECT 1` : Prisma.sql`
      UPDATE "Incident" SET version = ${incident.version}, "lastSeq" = ${incident.lastSeq}, snapshot = (SELECT snap FROM s),
        internal = ${JSON.stringify(incident.internal)}::jsonb, "closedAt" = ${incident.closedAt}::timestamptz,
        "liveVideoEndsAt" = ${incident.liveVideoEndsAt}::timestamptz, "planEpoch" = "planEpoch" + 1
      WHERE id = ${incident.id}::uuid`;
  // Data-modifying CTEs always run, referenced or not (PostgreSQL "WITH" docs).
  const ctes = [...(positions ? [positions] : []), ...writes.map((w) => w.ctes)];
  const extra = ctes.length ? Prisma.join(ctes.map((cte) => Prisma.sql`, ${cte}`), "") : Prisma.empty;
  const results = writes.length ? Prisma.join(writes.map((w) => w.result)) : Prisma.sql`NULL`;
  tx.finish<{ results: unknown[] }>(Prisma.sql`
    WITH s AS (SELECT ${snapshot}::jsonb AS snap),
    u AS (${update}),
    c AS (
      INSERT INTO "IncidentChange" ("incidentId", seq, kind, payload, "producedAt", actor, snapshot)
      SELECT ${incident.id}::uuid, r.seq, r.kind, r.payload, ${first.producedAt}::timestamptz, ${first.actor}, (SELECT snap FROM s)
      FROM jsonb_to_recordset(${records}::jsonb) AS r(seq int, kind text, payload jsonb)
      RETURNING 1
    )${extra}
    SELECT jsonb_build_array(${results}) AS results, (SELECT count(*) FROM c) AS records`, ([row]) => {
    writes.forEach((w, i) => w.committed?.(row?.results?.[i]));
  });
}
