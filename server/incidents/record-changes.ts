// Writes incidents' changes: their new state, their change records and every
// change subscriber's writes (the webhook planner's outbox rows), one
// statement for one or several incidents (recordStatement).
import { Prisma } from "../platform/db/client.ts";
import type { SqlTx } from "../platform/db/sql-transaction.ts";
import type { TraceContext } from "../platform/tracing/tracing.ts";
import { appliedTo, changeSubscribers, type IncidentChange, type IncidentChangeKind } from "./change-record.ts";
import type { IncidentState } from "./incident-state.ts";
import { planningVersionSql } from "./read-incidents.ts";
import { toStoredSnapshot, trackDeltaCtes, type TrackDelta } from "./track-storage.ts";

/** Numbers the changes and bumps the incident's version (not on creation); pure. */
export function buildChanges(options: {
  incident: IncidentState;
  kinds: IncidentChangeKind[];
  now: Date;
  actor: string;
  created?: boolean;
}): IncidentChange[] {
  const { incident, kinds, now, actor } = options;
  const firstSeq = incident.lastSeq + 1;
  incident.lastSeq += kinds.length;
  if (!options.created) incident.version += 1;
  return kinds.map((k, i) => ({
    ...k,
    incidentId: incident.id,
    seq: firstSeq + i,
    producedAt: now,
    actor,
    snapshot: incident.snapshot,
    temporaryInformation: incident.internal.temporaryInformation ?? null,
  }));
}

/**
 * Every registered subscriber plans the changes; `prefetched[i]` is what
 * subscriber i's prefetch read in the read statement (undefined: read again); `trace`, with
 * tracing on, is the change's span (the parent of a subscriber's own).
 * Returns each subscriber's plan (null: nothing to write), by subscriber index.
 */
export async function planSubscribers(
  tx: SqlTx,
  changes: IncidentChange[],
  prefetched: unknown[] | undefined,
  fullTracks?: () => Promise<void>,
  trace?: TraceContext,
): Promise<Array<unknown | null>> {
  const plans: Array<unknown | null> = [];
  const subscribers = changeSubscribers();
  for (let i = 0; i < subscribers.length; i++)
    plans.push(await subscribers[i]!.plan(tx, changes, prefetched?.[i], fullTracks, trace));
  return plans;
}

/** One incident's change, ready to write. */
export type ChangeToWrite = {
  incident: IncidentState;
  changes: IncidentChange[];
  /** By subscriber index (planSubscribers). */
  plans: Array<unknown | null>;
  /** What the change did to the tracks (track-storage.ts), written as IncidentPosition rows. */
  delta: TrackDelta;
  /** The optimistic read's xmin: the change applies only if the row is still that version. Absent: the row is locked. */
  readXmin?: string;
  /** With readXmin: the planning version the subscribers' prefetch was read under, which must not have moved either. */
  planningVersion?: string;
};

/**
 * The record statement of one or more incidents' changes: each incident's new
 * state (the snapshot in its stored form, tracks as placeholders), its change
 * records (seq lastSeq+1 …), its positions and every subscriber's writes, in
 * ONE statement. Shared by applyIncidentChange (several incidents at once on
 * its optimistic path) and incident creation (`created`: the row was just
 * inserted, only the records and writes are added).
 *
 * Why one statement: each round trip to PostgreSQL costs the inbound hot path
 * a socket write and a wake-up of the database backend on a 2-core machine,
 * and each statement an executor start-up; here they are paid once for every
 * change of a batch (docs/decisions/0010). An optimistic change whose incident
 * changed since its read (its xmin moved), or whose planning inputs did (the
 * planning version), writes nothing: `applied` (the UPDATE's RETURNING) lacks
 * it, and every other CTE writes only for incidents in `applied`
 * (change-record.ts). `then` reads the statement's answer: the ids that
 * applied with the xmin each write left, and the subscribers' `committed`
 * callbacks to run; `stateJson` is each incident's state as sent.
 */
export function recordStatement(
  unordered: ChangeToWrite[],
  options: { created?: boolean } = {},
): { statement: Prisma.Sql; stateJson: Map<string, string>; then: (rows: RecordRow[]) => RecordOutcome } {
  // In id order, so that two batches (two processes) sharing incidents mostly take their row locks in the same order; a
  // deadlock PostgreSQL still finds fails the statement as a whole, and its changes are then applied alone (apply-change.ts).
  const items = unordered.toSorted((a, b) =>
    a.incident.id < b.incident.id ? -1 : a.incident.id > b.incident.id ? 1 : 0,
  );
  const states = items.map(({ incident, readXmin, planningVersion }) => ({
    id: incident.id,
    readXmin: readXmin ?? null,
    planningVersion: planningVersion ?? null,
    version: incident.version,
    lastSeq: incident.lastSeq,
    snapshot: toStoredSnapshot(incident.snapshot),
    internal: incident.internal,
    closedAt: incident.closedAt,
    liveVideoEndsAt: incident.liveVideoEndsAt,
  }));
  const records = items.flatMap(({ changes }) =>
    changes.map(({ incidentId, seq, producedAt, actor, snapshot, kind, temporaryInformation: _, ...payload }) => ({
      incidentId,
      seq,
      kind,
      payload,
      producedAt,
      actor,
    })),
  );
  const applied = options.created
    ? Prisma.sql`SELECT x.id, NULL::text AS xmin FROM x`
    : Prisma.sql`
      UPDATE "Incident" i SET version = x.version, "lastSeq" = x."lastSeq", snapshot = x.snapshot, internal = x.internal,
        "closedAt" = x."closedAt", "liveVideoEndsAt" = x."liveVideoEndsAt", "planEpoch" = i."planEpoch" + 1
      FROM x WHERE i.id = x.id AND (x."readXmin" IS NULL OR (i.xmin = x."readXmin"
        AND (x."planningVersion" IS NULL OR x."planningVersion" = ${planningVersionSql})))
      RETURNING i.id, i.xmin::text AS xmin`;
  const positions = trackDeltaCtes(
    items.map(({ incident, changes, delta }) => ({ incidentId: incident.id, firstSeq: changes[0]!.seq, delta })),
  );
  const subscribers = changeSubscribers();
  const writes = subscribers.flatMap((subscriber, i) => {
    const plans = items.map((item) => item.plans[i]).filter((p) => p !== null && p !== undefined);
    return plans.length && subscriber.write ? [subscriber.write(plans)] : [];
  });
  // Data-modifying CTEs always run, referenced or not (PostgreSQL "WITH" docs).
  const ctes = [...(positions ? [positions] : []), ...writes.map((w) => w.ctes)];
  const extra = ctes.length
    ? Prisma.join(
        ctes.map((cte) => Prisma.sql`, ${cte}`),
        "",
      )
    : Prisma.empty;
  const results = writes.length ? Prisma.join(writes.map((w) => w.result)) : Prisma.sql`NULL`;
  // Each state's JSON is kept: a batch remembers what it wrote (recent-incidents.ts).
  const stateJson = states.map((s) => JSON.stringify(s));
  const statement = Prisma.sql`
    WITH x AS (
      SELECT * FROM jsonb_to_recordset(${`[${stateJson.join(",")}]`}::jsonb)
        AS x(id uuid, "readXmin" xid, "planningVersion" bigint, version int, "lastSeq" int, snapshot jsonb, internal jsonb, "closedAt" timestamptz, "liveVideoEndsAt" timestamptz)
    ),
    applied AS (${applied}),
    c AS (
      INSERT INTO "IncidentChange" ("incidentId", seq, kind, payload, "producedAt", actor, snapshot, "temporaryInformation")
      SELECT r."incidentId", r.seq, r.kind, r.payload, r."producedAt", r.actor, x.snapshot, x.internal->'temporaryInformation'
      FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r("incidentId" uuid, seq int, kind text, payload jsonb, "producedAt" timestamptz, actor text)
      JOIN x ON x.id = r."incidentId"
      WHERE ${appliedTo(Prisma.sql`r."incidentId"`)}
    )${extra}
    SELECT jsonb_build_array(${results}) AS results, (SELECT coalesce(jsonb_object_agg(id::text, xmin), '{}'::jsonb) FROM applied) AS applied`;
  return {
    statement,
    stateJson: new Map(items.map((item, i) => [item.incident.id, stateJson[i]!])),
    then: (rows) => {
      const row = rows[0];
      const xmins = new Map(Object.entries(row?.applied ?? {}));
      return {
        applied: new Set(xmins.keys()),
        xmins,
        committed: () => writes.forEach((w, i) => w.committed?.(row?.results?.[i])),
      };
    },
  };
}

/** `applied`: each applied incident's id and the xmin its write left (null when the row was just created). */
export type RecordRow = { results: unknown[]; applied: Record<string, string | null> };
export type RecordOutcome = {
  applied: Set<string>;
  /** The version each applied write left (null: created in the statement's transaction). */
  xmins: Map<string, string | null>;
  committed: () => void;
};

/** One incident's record statement as its transaction's finishing statement (pipelined with COMMIT); incident creation and the locked path. */
export function finishWithRecord(tx: SqlTx, item: ChangeToWrite, options: { created?: boolean } = {}): void {
  if (item.changes.length === 0) return;
  const { statement, then } = recordStatement([item], options);
  tx.finish<RecordRow>(statement, (rows) => then(rows).committed());
}
