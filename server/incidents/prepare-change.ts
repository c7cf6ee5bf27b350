// What happens to one change between its read and its write, on either path:
// the access, state and If-Match checks, the mutation on a private copy, the
// lazy-track rule (positions are filled only when a subscriber asks) and the
// subscribers' plans. Then the locked path, which reads, prepares and writes
// one change in one transaction under the incident's row lock.
import { Prisma } from "../platform/db/client.ts";
import { inSqlTransaction, type SqlTx } from "../platform/db/sql-transaction.ts";
import { AppError } from "../platform/errors.ts";
import { incidentNotFound, type AppliedChange, type ApplyChangeOptions } from "./change-types.ts";
import { canAct, parseIfMatch, type IncidentState } from "./incident-state.ts";
import { readIncidents, type ReadIncident } from "./read-incidents.ts";
import { buildChanges, finishWithRecord, planSubscribers, type ChangeToWrite } from "./record-changes.ts";
import { fillTracks, markTracks, trackDelta } from "./track-storage.ts";

export type Prepared<R> = {
  applied: AppliedChange<R>;
  /** The record statement's part (absent: nothing recorded). */
  write?: ChangeToWrite;
  /** Only `incident.internal` changed: saved on its own, without a version bump or change record. */
  internal?: boolean;
  readXmin?: string;
};

/** The checks, the mutation and the subscribers' plans, on the incident as read (locked, or with the xmin its write must still find). */
export async function prepareChange<R>(
  tx: SqlTx,
  options: ApplyChangeOptions<R>,
  read: ReadIncident | undefined,
): Promise<Prepared<R>> {
  const { access } = options;
  if (!read) throw incidentNotFound();
  const { prefetched, readXmin, planningVersion, ...incident } = read;
  const marks = markTracks(incident.snapshot);
  if (access && !(access.anyInvolvement ? incident.collaboration !== null : canAct(incident.collaboration)))
    throw incidentNotFound();
  if (incident.closedAt) throw new AppError("IncidentClosed", "The incident is closed and accepts no change.");
  checkIfMatch(options.ifMatch, incident.version);

  const now = options.clock.now();
  const chat = incident.snapshot.caller.chat;
  const outcome = await options.mutate({ tx, incident, now });
  // The snapshot's chat is "null only until chat is activated, never null again while the incident is
  // open" (spec, "Webhook incident snapshot (v3)"): a change that would take it back is a defect, and
  // is refused as one (a 500 with its traceId) rather than recorded and sent to every receiver.
  if (chat !== null && incident.snapshot.caller.chat === null)
    throw new Error(`a change of incident ${incident.id} would clear the caller's activated chat`);
  if (outcome.closedAt) incident.closedAt = outcome.closedAt;
  if (outcome.liveVideoEndsAt !== undefined) incident.liveVideoEndsAt = outcome.liveVideoEndsAt;
  if (outcome.changes.length === 0)
    return {
      applied: { result: outcome.result, version: incident.version, incident, changes: [] },
      internal: outcome.internalChanged,
      readXmin,
    };

  const delta = trackDelta(incident.snapshot.caller.tracks, marks);
  const changes = buildChanges({ incident, kinds: outcome.changes, now, actor: options.actor });
  let filled: Promise<void> | undefined;
  const fullTracks = () => (filled ??= fillTracks(tx, incident.id, incident.snapshot, marks));
  const plans = await planSubscribers(tx, changes, prefetched, fullTracks, options.trace);
  return {
    applied: { result: outcome.result, version: incident.version, incident, changes },
    write: { incident, changes, plans, delta, readXmin, planningVersion },
  };
}

function checkIfMatch(header: string | undefined, version: number) {
  const parsed = parseIfMatch(header);
  if (!parsed || "any" in parsed) return;
  if (!parsed.versions.includes(version)) {
    throw new AppError(
      "UpdateConflict",
      `The incident changed since that ETag was read; its current ETag is "${version}". Read it again and retry.`,
    );
  }
}

export const saveInternal = (incident: IncidentState, readXmin: string | undefined) => Prisma.sql`
  UPDATE "Incident" SET internal = ${JSON.stringify(incident.internal)}::jsonb
  WHERE id = ${incident.id}::uuid${readXmin === undefined ? Prisma.empty : Prisma.sql` AND xmin = ${readXmin}::xid`}`;

/** The locked path: one transaction holding the incident's row lock; the record statement rides with COMMIT. */
export function applyLocked<R>(options: ApplyChangeOptions<R>): Promise<AppliedChange<R>> {
  return inSqlTransaction(options.db, async (tx) => {
    const [read] = await readIncidents(
      tx,
      [{ incidentId: options.incidentId, agencyId: options.access?.agencyId }],
      true,
    );
    const prepared = await prepareChange(tx, options, read);
    if (prepared.write) finishWithRecord(tx, prepared.write);
    else if (prepared.internal) await tx.execute(saveInternal(prepared.applied.incident, undefined));
    return prepared.applied;
  });
}
