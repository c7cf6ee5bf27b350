// The shapes every path of a change shares: what a mutation gets and returns,
// what applyIncidentChange is asked (apply-change.ts) and what it answers.
import type { Clock } from "../platform/clock/clock.ts";
import type { TraceContext } from "../platform/tracing/tracing.ts";
import type { DbClient } from "../platform/db/client.ts";
import type { SqlTx } from "../platform/db/sql-transaction.ts";
import { AppError } from "../platform/errors.ts";
import type { IncidentChange, IncidentChangeKind } from "./change-record.ts";
import type { IncidentState } from "./incident-state.ts";

export type MutationContext = { incident: IncidentState; now: Date };
export type Mutate<R, C> = (ctx: C) => MutationOutcome<R> | Promise<MutationOutcome<R>>;
export type MutationOutcome<R> = {
  changes: IncidentChangeKind[];
  result: R;
  /** Column updates beside the snapshot (undefined: unchanged). */
  liveVideoEndsAt?: Date | null;
  closedAt?: Date;
  /** Only `incident.internal` changed (never delivered): saved without a version bump or change record. */
  internalChanged?: boolean;
};

export type ApplyChangeOptions<R> = {
  db: DbClient;
  clock: Clock;
  incidentId: string;
  /** "inbound:<clientId>", "simulator", "system", … */
  actor: string;
  /** Inbound access: the agency must act on the incident (Owner/Accepted), or — `anyInvolvement` — merely be involved (to resolve an invitation). Otherwise 404. */
  access?: { agencyId: string; anyInvolvement?: boolean };
  /** The request's If-Match header, raw. */
  ifMatch?: string;
  /** With tracing on: the parent of the change's span (the request's), passed on explicitly (decision 0054). */
  trace?: TraceContext;
  /** Told the change records once they are committed (the API calls inspector links a call to them). */
  onRecorded?: (changes: readonly IncidentChange[]) => void;
} &
  /**
   * Mutates `incident.snapshot` / `incident.internal` in place (a private copy) and names the changes; throws AppError for a refused transition.
   * Optimistic by default: the incident is read without a lock and written by one statement that applies only if the row is still
   * as read (its xmin); otherwise `mutate` runs again on a fresh read, and after OPTIMISTIC_ATTEMPTS under the row lock. So it must
   * be pure but for the incident it is given.
   */
  (
    | { transactional?: false; mutate: Mutate<R, MutationContext> }
    /** A mutation that writes rows of its own through `tx`: it runs under the incident's row lock, in the change's transaction. */
    | { transactional: true; mutate: Mutate<R, MutationContext & { tx: SqlTx }> }
  );

/** What a domain operation on one incident takes: the change's options but the mutation, which the operation writes. */
export type IncidentOperation = Omit<ApplyChangeOptions<unknown>, "mutate">;

/** `incident.snapshot`'s tracks are lazy (track-storage.ts): whole only if a subscriber filled them; read the incident again for its tracks. */
export type AppliedChange<R> = { result: R; version: number; incident: IncidentState; changes: IncidentChange[] };

export const incidentNotFound = () =>
  new AppError("IncidentNotFound", "No incident with that ID is accessible to the token's agency.");
