// Delivers one claimed outbox row: expire it if its hour is over, hold it while
// the integration is not accepted, supersede it when it was planned under another
// major version than the accepted one (decision 0049) or for an earlier receiver URL
// (decision 0062), else send it once and record the result (finish-delivery.ts). Headers per platform-interface.md "Events": Service-Request-Id and
// Service-Request-Timestamp, both fixed when the event was produced.
import type { Runtime } from "../../runtime.ts";
import type { TraceSpan } from "../../platform/tracing/tracing.ts";
import type { DeliveryRef } from "../webhook-events.ts";
import { contractOfPath, type ClaimedDelivery } from "../outbox/outbox-row.ts";
import { expiresAtOf, isExpired } from "../outbox/delivery-window.ts";
import type { CutOverLane } from "../outbox/lane-cutover.ts";
import { receiverTarget } from "../sending/receiver-url.ts";
import { refusalOf, sendRequest, unsent, type SendResult } from "../sending/send-request.ts";
import { getServiceToken } from "../sending/service-token-cache.ts";
import { eventRequestHeaders } from "../sending/legacy-credential.ts";
import { decideRetry } from "./decide-retry.ts";
import { dispatcherFaultAt, simulatedFailure } from "./dispatcher-fault.ts";
import type { DeliveryTarget, DeliveryTargetLoader } from "./load-delivery-target.ts";
import type { AttemptRecord, ClaimNext, Outcome } from "./record-outcome.ts";
import { finishDelivery, type Attempted } from "./finish-delivery.ts";
import { endAttemptSpan, startAttemptSpan } from "./trace-attempt.ts";

/** How long an event waits before looking again at an integration whose /about is not accepted. */
export const HOLD_WHILE_UNDISCOVERED_MS = 5_000;
/**
 * How long an event waits when the target loader (cached a second) said its contract is not the
 * accepted one and the declaration read in the transaction says it is: the loader's second.
 */
const RECHECK_CONTRACT_MS = 1_000;

export type DeliverDeps = {
  runtime: Runtime;
  workerId: string;
  targets: DeliveryTargetLoader;
  timeoutMs: number;
  /** The planner's lane cutover, run in the transaction that records an event superseded (outbox/lane-cutover.ts). */
  cutOverLane: CutOverLane;
  /** When given, a delivered event's record also claims its lane's next event (record-outcome.ts). */
  claimNext?: ClaimNext;
};

/**
 * `attempted` is called once the attempt is over (or found unnecessary), with the state its outcome
 * will record, before that record is written: the worker's slot is free then, and a delivered event's
 * successor that the worker holds already may leave (delivery-worker.ts). The record waits for what
 * it returns (the lane's previous record, a successor's release); `false` records the outcome
 * without claiming a successor. Resolves true when the outcome was recorded (the claim still held).
 */
export async function deliverEvent(
  deps: DeliverDeps,
  row: ClaimedDelivery,
  attempted: Attempted = () => {},
): Promise<boolean> {
  const { runtime } = deps;
  const ref: DeliveryRef = {
    deliveryId: row.id.toString(),
    requestId: row.requestId,
    integrationKey: row.integrationKey,
    incidentId: row.incidentId,
    method: row.method,
    path: row.path,
  };
  const finish = (attempt: AttemptRecord | null, outcome: Outcome, otherwise?: Pending, span?: TraceSpan | null) =>
    finishDelivery({ deps, row, ref, attempted, attempt, outcome, otherwise, span: span ?? null });
  // The attempt's whole deadline runs from here (claim → send → response read): the worker
  // starts a claimed head only while its lease still covers timeoutMs (delivery-worker.ts).
  const attemptStarted = performance.now();
  const now = runtime.clock.now();
  if (isExpired(row.producedAt, now)) return finish(null, { state: "expired" });

  const target = await deps.targets.load(row.integrationKey);
  // Rule 1 of the receiver routes: events wait in the queue, up to their window.
  if (!target?.accepted) return finish(null, waitFor(row, now, HOLD_WHILE_UNDISCOVERED_MS));
  // Versioning rule 3, Delivery rule 7: one major version at a time. An event planned under another
  // is never sent once a declaration of this one is accepted (decision 0049), nor one planned for the
  // integration's earlier receiver (0062).
  if (plannedForAnother(target, row))
    return finish(null, { state: "superseded" }, waitFor(row, now, RECHECK_CONTRACT_MS));

  const { attempt, span } = await attemptOnce(deps, row, target, attemptStarted);
  // Delivery rule 1: only HTTP 200 accepts an event (201 and 204 included in the failures).
  // Rule 2 counts the delay from the failure itself (the attempt's end on the workbench clock), not
  // from whenever this process got round to deciding: under load that lag reached 250 ms and more.
  const failedAt = new Date(attempt.startedAt.getTime() + attempt.durationMs);
  const decision = attempt.status === 200 ? null : decideRetry(attempt.attempt, row.producedAt, failedAt);
  const outcome: Outcome =
    decision === null
      ? { state: "delivered" }
      : "expire" in decision
        ? { state: "expired" }
        : { state: "pending", retryAt: decision.retryAt };
  // Failed while a declaration of another major version, or another receiver, was accepted: superseded,
  // not retried under the old one.
  if (outcome.state === "pending" && (await acceptsAnother(deps, row)))
    return finish(attempt, { state: "superseded" }, outcome, span);
  return finish(attempt, outcome, undefined, span);
}

type Pending = { state: "pending"; retryAt: Date };

/** Pending again `ms` from now, but never past the event's window. */
const waitFor = (row: ClaimedDelivery, now: Date, ms: number): Pending => ({
  state: "pending",
  retryAt: new Date(Math.min(now.getTime() + ms, expiresAtOf(row.producedAt).getTime())),
});

/** One attempt: refused by the outbound policy, failed by a simulated network fault, or sent. */
async function attemptOnce(
  deps: DeliverDeps,
  row: ClaimedDelivery,
  target: DeliveryTarget,
  attemptStarted: number,
): Promise<{ attempt: AttemptRecord; span: TraceSpan | null }> {
  const { runtime } = deps;
  const receiver = receiverTarget(target.receiverUrl, target.insecureDev, runtime.env);
  const url = receiver.baseUrl + row.path;
  // The legacy contracts: a v1/v2 route carries requestId/requestTimeStampUtc in its body and a PsapConnector token with the route's psap.* scope.
  const span = startAttemptSpan(row, url);
  const { headers: eventHeaders, legacyScope } = eventRequestHeaders(row);
  const headers = span === null ? eventHeaders : { ...eventHeaders, traceparent: span.traceparent };
  // Refused by the outbound policy (the URL as written; resolved addresses are checked when connecting).
  const refusal = refusalOf(url, receiver.target);
  // A dispatcher-side network fault stands in for the network between the platform and the receiver.
  const networkFault = refusal ? "ok" : dispatcherFaultAt(target.dispatcherFault, runtime.clock.nowMs());
  let result: SendResult;
  let startedAt = runtime.clock.now();
  if (refusal) {
    result = unsent(refusal, 0, true);
  } else if (networkFault !== "ok") {
    result = simulatedFailure(networkFault, deps.timeoutMs);
  } else {
    const token = legacyScope
      ? await getServiceToken(runtime, row.agencyId, "PsapConnector", [legacyScope])
      : await getServiceToken(runtime, row.agencyId, "Publisher");
    startedAt = runtime.clock.now();
    result = await sendRequest({
      url,
      method: row.method,
      headers: { ...headers, authorization: `Bearer ${token}` },
      body: row.body === null ? null : JSON.stringify(row.body),
      target: receiver.target,
      timeoutMs: deps.timeoutMs,
      attemptStartedMs: attemptStarted,
    });
  }
  const attempt: AttemptRecord = {
    attempt: row.attemptCount + 1,
    startedAt,
    durationMs: result.durationMs,
    url,
    requestHeaders: result.refused ? headers : { ...headers, authorization: "Bearer [redacted]" },
    status: result.status,
    responseHeaders: result.headers,
    bodyExcerpt: result.bodyExcerpt,
    error: result.error ?? (result.status !== 200 ? `HTTP ${result.status}: only 200 accepts a delivery` : null),
  };
  if (span !== null) endAttemptSpan(span, attempt);
  return { attempt, span };
}

/** Whether the integration's accepted declaration (as the target loader has it now) is not the row's. */
async function acceptsAnother(deps: DeliverDeps, row: ClaimedDelivery): Promise<boolean> {
  const target = await deps.targets.load(row.integrationKey);
  return target?.accepted === true && plannedForAnother(target, row);
}

/**
 * The row was planned under another contract than the accepted declaration's major version (discovery
 * always stores one), or for the receiver the integration had before its URL last changed.
 */
const plannedForAnother = (target: DeliveryTarget, row: ClaimedDelivery) =>
  (target.majorVersion !== null && contractOfPath(row.path) !== target.majorVersion) ||
  (target.movedAfterDeliveryId !== null && row.id <= target.movedAfterDeliveryId);
