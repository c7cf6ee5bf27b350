// The end of one delivery step (deliver-event.ts): the worker's slot is freed, then the outcome is
// recorded — an expiry with the receiver's tracks settled (record-expiry.ts), a supersession with
// its lane cut over (record-supersession.ts), anything else batched (record-outcome.ts) — and only
// then counted, logged and announced (CONTRIBUTING.md, 'Typed lifecycle events').
import { recordDeliveryAccepted, recordDeliveryAttempt } from "../../platform/metrics/registry.ts";
import { traceLogFieldsOr, type TraceSpan } from "../../platform/tracing/tracing.ts";
import { webhookEvents, type DeliveryRef } from "../webhook-events.ts";
import type { Runtime } from "../../runtime.ts";
import { logCutover, type CutOverLane, type LaneCutover } from "../outbox/lane-cutover.ts";
import type { ClaimedDelivery } from "../outbox/outbox-row.ts";
import { attemptStatus } from "./attempt-status.ts";
import { recordExpiry, type RewrittenDelivery } from "./record-expiry.ts";
import { recordOutcome, type AttemptRecord, type ClaimNext, type Outcome } from "./record-outcome.ts";
import { recordSupersession } from "./record-supersession.ts";

export type Attempted = (state: Outcome["state"]) => Promise<boolean | void> | void;

/** What of the deliverer's dependencies the end of a step uses (deliver-event.ts, DeliverDeps). */
type FinishDeps = { runtime: Runtime; workerId: string; cutOverLane: CutOverLane; claimNext?: ClaimNext };

type Finish = {
  deps: FinishDeps;
  row: ClaimedDelivery;
  ref: DeliveryRef;
  attempted: Attempted;
  attempt: AttemptRecord | null;
  outcome: Outcome;
  /** What a supersession records when the transaction does not confirm it (record-supersession.ts). */
  otherwise?: { state: "pending"; retryAt: Date };
  span: TraceSpan | null;
};

/**
 * The attempt is over (or was not needed): free the worker's slot, then record the outcome. A
 * supersession the database does not confirm records `otherwise`. With tracing on, its log lines
 * carry the attempt span's ids, or without an attempt the change's (the row's traceparent).
 */
export async function finishDelivery(f: Finish): Promise<boolean> {
  const { deps, row, ref, attempt, outcome, otherwise, span } = f;
  const claimNext = (await f.attempted(outcome.state)) === false ? undefined : deps.claimNext;
  const { db, clock, logger } = deps.runtime;
  const recorded = { delivery: row, workerId: deps.workerId, now: clock.now(), attempt };
  let rewritten: RewrittenDelivery[] = [];
  let state = outcome.state;
  let cutover: LaneCutover | null = null;
  if (outcome.state === "expired") {
    const expiry = await recordExpiry(db, recorded);
    if (!expiry) return false;
    rewritten = expiry.rewritten;
  } else if (outcome.state === "superseded") {
    const supersession = await recordSupersession(db, {
      ...recorded,
      otherwise: otherwise!,
      cutOverLane: deps.cutOverLane,
    });
    if (!supersession) return false;
    state = supersession.state;
    cutover = supersession.cutover;
    if (cutover) logCutover(deps.runtime, row.integrationKey, cutover);
  } else if (!(await recordOutcome(db, { ...recorded, outcome, claimNext }))) return false;
  if (attempt) countAttempt(row, attempt, state);
  const events = webhookEvents();
  const attempts = row.attemptCount + (attempt ? 1 : 0);
  const retryAt = state === "pending" ? (outcome.state === "pending" ? outcome : otherwise!).retryAt : null;
  if (attempt)
    events.emit("delivery:attempted", {
      ...ref,
      workerId: deps.workerId,
      attempt: attempt.attempt,
      status: attempt.status,
      error: attempt.error,
      durationMs: attempt.durationMs,
      retryAt,
    });
  if (!attempt && retryAt) events.emit("delivery:held", { ...ref, retryAt });
  if (state === "delivered") events.emit("delivery:delivered", { ...ref, attempts });
  if (state === "superseded") {
    logger.info(
      { ...logFields(row, span), attempts },
      "webhook delivery superseded: planned under another major version, or for an earlier receiver, than the accepted declaration",
    );
    events.emit("delivery:superseded", { ...ref, attempts, acceptedMajor: cutover!.acceptedMajor });
  }
  if (state === "expired") {
    logger.warn({ ...logFields(row, span), attempts }, "webhook delivery expired (one hour after production)");
    events.emit("delivery:expired", { ...ref, attempts });
    for (const r of rewritten) announceRewrite(deps, row, r, span);
  }
  return true;
}

const logFields = (row: ClaimedDelivery, span: TraceSpan | null) => ({
  requestId: row.requestId,
  integration: row.integrationKey,
  incidentId: row.incidentId,
  path: row.path,
  ...traceLogFieldsOr(span, row.traceparent),
});

/** A queued append the expiry rewrote into a whole-track PUT (record-expiry.ts). */
function announceRewrite(deps: FinishDeps, row: ClaimedDelivery, r: RewrittenDelivery, span: TraceSpan | null) {
  deps.runtime.logger.info(
    { ...logFields(row, span), requestId: r.requestId, path: r.path, after: row.requestId },
    "queued append rewritten into a whole-track PUT (the whole track before it expired)",
  );
  webhookEvents().emit("delivery:rewritten", {
    deliveryId: r.deliveryId.toString(),
    requestId: r.requestId,
    integrationKey: row.integrationKey,
    incidentId: row.incidentId,
    method: r.method,
    path: r.path,
    eventName: r.eventName,
    afterExpired: row.requestId,
  });
}

/**
 * The recorded attempt in the process's metrics (docs/observability.md). An accepted event's lag runs
 * from its production (Service-Request-Timestamp) to the attempt's end, both on the workbench clock
 * (CONTRIBUTING.md, 'One clock').
 */
function countAttempt(row: ClaimedDelivery, attempt: AttemptRecord, state: Outcome["state"]) {
  recordDeliveryAttempt(row.integrationKey, attemptStatus(attempt));
  if (state === "delivered")
    recordDeliveryAccepted(
      row.integrationKey,
      attempt.startedAt.getTime() + attempt.durationMs - row.producedAt.getTime(),
    );
}
