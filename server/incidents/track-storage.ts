// Caller tracks are stored outside the snapshot: one IncidentPosition row per
// position. Why: every change reads and writes its incident's snapshot (and a
// copy for its change record); with the tracks inside, an append cost grew
// with the track (measured on PostgreSQL 15: 0.9 → 1.8 ms of database CPU per
// request as snapshots grew to 45 KB, ~260 positions — docs/decisions/0009).
//
// Stored form: the snapshot with each track a placeholder `{ source, track: [] }`
// (the sources' order is kept there). The SQL function incident_snapshot_at
// (migration incident_positions) assembles the snapshot at any change's seq,
// so readers see the v3 snapshot exactly as before.
//
// A transaction's positions carry its first seq (addedSeq; a replaced track's
// rows get replacedSeq): every change record of one transaction shares the
// snapshot after it, as before.
import { Prisma } from "../platform/db/client.ts";
import type { SqlTx } from "../platform/db/sql-transaction.ts";
import { appliedTo } from "./change-record.ts";
import type { TIncidentSnapshotV3, TLocation, TTrack } from "./snapshot.schema.ts";

/** The snapshot as stored: tracks emptied, order kept. Pure; shares every other member. */
export function toStoredSnapshot(snapshot: TIncidentSnapshotV3): TIncidentSnapshotV3 {
  if (snapshot.caller.tracks.length === 0) return snapshot;
  return {
    ...snapshot,
    caller: { ...snapshot.caller, tracks: snapshot.caller.tracks.map((t) => ({ source: t.source, track: [] })) },
  };
}

/** Each source's track array and length as read (by reference: mutations push onto it or replace it). */
export type TrackMarks = Map<string, { track: TLocation[]; length: number }>;

export function markTracks(snapshot: TIncidentSnapshotV3): TrackMarks {
  return new Map(snapshot.caller.tracks.map((t) => [t.source, { track: t.track, length: t.track.length }]));
}

/** What a transaction did to the tracks: positions to add (in order) and sources whose current positions it replaced. */
export type TrackDelta = { added: Array<{ source: string; location: TLocation }>; replacedSources: string[] };

/**
 * Compares the tracks after a mutation with the marks taken when they were read
 * (undefined: a new incident, every position is added). The domain changes a
 * track in two ways only (caller-track.ts): it pushes positions onto the same
 * array, or it sets a new array (a whole-track replacement). Works on lazy
 * tracks too (placeholders read as empty arrays: everything pushed is new).
 */
export function trackDelta(tracks: TTrack[], marks: TrackMarks | undefined): TrackDelta {
  const delta: TrackDelta = { added: [], replacedSources: [] };
  for (const t of tracks) {
    const mark = marks?.get(t.source);
    const kept = mark !== undefined && mark.track === t.track && t.track.length >= mark.length;
    if (mark && !kept) delta.replacedSources.push(t.source);
    const from = kept ? mark.length : 0;
    for (const location of t.track.slice(from)) delta.added.push({ source: t.source, location });
  }
  if (marks)
    for (const source of marks.keys()) if (!tracks.some((t) => t.source === source)) delta.replacedSources.push(source);
  return delta;
}

/**
 * The deltas of one or more incidents as CTEs of the aggregate's record
 * statement (data-modifying CTEs always run; each writes only for incidents in
 * `applied`). The UPDATE sees the statement's snapshot, so it never touches
 * the rows the INSERT adds; the ids follow the positions' order.
 */
export function trackDeltaCtes(
  items: Array<{ incidentId: string; firstSeq: number; delta: TrackDelta }>,
): Prisma.Sql | null {
  const replaced = items.flatMap(({ incidentId, firstSeq, delta }) =>
    delta.replacedSources.map((source) => ({ incidentId, source, seq: firstSeq })),
  );
  const added = items.flatMap(({ incidentId, firstSeq, delta }) =>
    delta.added.map((a) => ({ incidentId, seq: firstSeq, ...a })),
  );
  if (added.length === 0 && replaced.length === 0) return null;
  const ctes: Prisma.Sql[] = [];
  if (replaced.length)
    ctes.push(Prisma.sql`pos_replaced AS (
      UPDATE "IncidentPosition" p SET "replacedSeq" = r.seq
      FROM jsonb_to_recordset(${JSON.stringify(replaced)}::jsonb) AS r("incidentId" uuid, source text, seq int)
      WHERE p."incidentId" = r."incidentId" AND p.source = r.source AND p."replacedSeq" IS NULL AND ${appliedTo(Prisma.sql`r."incidentId"`)}
      RETURNING 1
    )`);
  if (added.length)
    ctes.push(Prisma.sql`pos_added AS (
      INSERT INTO "IncidentPosition" ("incidentId", source, location, "addedSeq")
      SELECT p."incidentId", p.source, p.location, p.seq
      FROM jsonb_to_recordset(${JSON.stringify(added.map((a, n) => ({ ...a, n })))}::jsonb) AS p("incidentId" uuid, source text, location jsonb, seq int, n int)
      WHERE ${appliedTo(Prisma.sql`p."incidentId"`)}
      ORDER BY p.n
      RETURNING 1
    )`);
  return Prisma.join(ctes, ", ");
}

/** The assembled snapshot of an "Incident" row (alias `i`) at its latest change. */
export const currentSnapshotSql = (alias = "i") =>
  Prisma.raw(`incident_snapshot_at(${alias}.snapshot, ${alias}.id, ${alias}."lastSeq")`);

/** The assembled snapshot of an "IncidentChange" row as it was after that change (columns unqualified: one table in FROM). */
export const changeSnapshotSql = () => Prisma.raw(`incident_snapshot_at(snapshot, "incidentId", seq)`);

/**
 * Lazy tracks (apply-change.ts): the aggregate reads the stored snapshot, whose
 * tracks are empty placeholders, and fills them only when a change subscriber
 * needs whole tracks (a whole-track PUT, a generic changed, an introduction):
 * most appends plan an append event, whose body is the new position alone.
 * Fills in place: each placeholder the change only appended to (same array)
 * gets the stored positions before the new ones; a replaced track is whole already.
 */
export async function fillTracks(
  tx: SqlTx,
  incidentId: string,
  snapshot: TIncidentSnapshotV3,
  marks: TrackMarks,
): Promise<void> {
  const rows = await tx.query<{ source: string; track: TLocation[] }>(Prisma.sql`
    SELECT source, jsonb_agg(location ORDER BY id) AS track FROM "IncidentPosition"
    WHERE "incidentId" = ${incidentId}::uuid AND "replacedSeq" IS NULL GROUP BY source`);
  const stored = new Map(rows.map((r) => [r.source, r.track]));
  for (const t of snapshot.caller.tracks) {
    const mark = marks.get(t.source);
    if (mark && mark.track === t.track) t.track.unshift(...(stored.get(t.source) ?? []));
  }
}
