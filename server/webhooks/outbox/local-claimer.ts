// Claim at production (docs/decisions/0030): the delivery worker of this process
// offers to take lane heads that the planning write itself inserts already
// claimed, so a new event on an idle lane needs no claim statement and no second
// write of its row. The planner finds the worker by the database client its
// transaction runs on; a process with no worker on that database (API-only, or
// a test's client without one) plans pending rows as before.
import { processSingleton } from "../../platform/process-singleton.ts";
import type { ClaimedDelivery } from "./outbox-row.ts";

export type LocalClaimer = {
  workerId: string;
  /** The lease a claim sets, as the worker's own claims do. */
  leaseMs: number;
  /** How many more heads the worker would take now (free slots plus prefetch, less what it holds). */
  room: () => number;
  /**
   * Heads the planning write inserted claimed for this worker, after that write committed.
   * `claimedAtMs`: performance.now() before the write was sent (the lease may have started then).
   */
  take: (rows: ClaimedDelivery[], claimedAtMs: number) => void;
};

// By database client, on globalThis: Next's bundle plans through its own copy of this module.
const claimers = processSingleton("local-delivery-claimers", () => new WeakMap<object, LocalClaimer>());

/** Registers `claimer` for `db` (the first worker of a client only); returns its removal. */
export function registerLocalClaimer(db: object, claimer: LocalClaimer): () => void {
  if (claimers.has(db)) return () => {};
  claimers.set(db, claimer);
  return () => {
    if (claimers.get(db) === claimer) claimers.delete(db);
  };
}

/** The worker that takes heads claimed at production on `db`, if this process runs one. */
export function localClaimer(db: object): LocalClaimer | undefined {
  return claimers.get(db);
}
