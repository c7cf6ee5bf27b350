// The one function through which an existing incident changes: it reads the
// incident, checks access and state, lets the caller mutate a copy of the
// snapshot, bumps the version, and writes the new state, one IncidentChange per
// change (next seq) and the subscribers' writes (change-record.ts) in one
// statement — so a change, its record and its planned deliveries commit or roll
// back together, and no update is ever lost: seq follows commit order.
//
// Two paths:
// - optimistic (the default): changes arriving together are read in one
//   statement and written in one statement (a batch: at most one change per
//   incident), without a transaction or row lock; each incident's part applies
//   only if its row is still the version read (xmin). One that changed in
//   between is read and mutated again, and after OPTIMISTIC_ATTEMPTS it takes
//   the locked path. Why: per statement, PostgreSQL's executor start-up, the
//   round trip and the commit cost as much as the writes themselves; a batch
//   pays them once (docs/decisions/0010).
// - locked: one transaction holding the incident's row lock (SELECT … FOR
//   UPDATE) from the read to the commit; for mutations that write rows of their
//   own (`transactional`), and as the fallback.
//
// A change, top to bottom: change-batcher.ts queues it and forms its batch →
// read-incidents.ts reads → prepare-change.ts checks, mutates (tracks stay
// lazy) and plans → record-changes.ts writes; or, locked, prepare-change.ts's
// applyLocked does all three under the row lock. change-types.ts holds the
// shapes they share.
import { batcherOf } from "./change-batcher.ts";
import { incidentNotFound, type AppliedChange, type ApplyChangeOptions } from "./change-types.ts";
import { isUuid } from "./db-handle.ts";

export {
  incidentNotFound,
  type AppliedChange,
  type ApplyChangeOptions,
  type MutationContext,
  type MutationOutcome,
} from "./change-types.ts";

export async function applyIncidentChange<R>(options: ApplyChangeOptions<R>): Promise<AppliedChange<R>> {
  const { incidentId, access } = options;
  if (!isUuid(incidentId) || (access && !isUuid(access.agencyId))) throw incidentNotFound();
  // Every change of the process goes through its batcher, the locked ones too: it keeps each incident's changes in arrival order.
  const applied = (await batcherOf(options.db).submit(options)) as AppliedChange<R>;
  if (applied.changes.length > 0) options.onRecorded?.(applied.changes);
  return applied;
}
