// Delivers one claimed outbox row: expire it if its hour is over, hold it while
// the integration is not accepted, supersede it when the accepted declaration is
// of another major version (decision 0049), else send it once and record the result.
// Headers per platform-interface.md "Events": Service-Request-Id and
// Service-Request-Timestamp, both fixed when the event was produced.
import type { Runtime } from "../../runtime.ts";
import { receiverTarget } from "../receiver-url.ts";
import { webhookEvents, type DeliveryRef } from "../webhook-events.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";
import { decideRetry, isExpired, RETRY_WINDOW_MS } from "./decide-retry.ts";
import type { DeliveryTarget, DeliveryTargetLoader } from "./load-delivery-target.ts";
import { recordExpiry, type RewrittenDelivery } from "./record-expiry.ts";
import { recordOutcome, type AttemptRecord, type ClaimNext, type Outcome } from "./record-outcome.ts";
import { refusalOf, sendRequest, type SendResult } from "./send-request.ts";
import { getServiceToken } from "./service-token-cache.ts";
import { dispatcherFaultAt } from "../../reference-receiver/faults.ts";
import { eventRequestHeaders } from "./legacy-credential.ts";
import { recordSupersession } from "./record-supersession.ts";
import { recordDeliveryAccepted, recordDeliveryAttempt } from "../../platform/metrics/registry.ts";
import { attemptStatus } from "./attempt-status.ts";
import { endAttemptSpan, startAttemptSpan } from "./trace-attempt.ts";
import { traceLogFieldsOr, type TraceSpan } from "../../platform/tracing/tracing.ts";
import { contractOfPath } from "../planning/legacy-lane.ts";
import { logCutover, type LaneCutover } from "../planning/supersede-queued-events.ts";

/** How long an event waits before looking again at an integration whose /about is not accepted. */
export const HOLD_WHILE_UNDISCOVERED_MS = 5_000;
/**
 * How long an event waits when the target loader (cached a second) said its contract is not the
 * accepted one and the declaration read in the transaction says it is: the loader's second.
 */
const RECHECK_CONTRACT_MS = 1_000;

export type Attempted = (state: Outcome["state"]) => Promise<boolean | void> | void;

export type DeliverDeps = {
  runtime: Runtime;
  workerId: string;
  targets: DeliveryTargetLoader;
  timeoutMs: number;
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
  // The attempt's whole deadline runs from here (claim → send → response read): the worker
  // starts a claimed head only while its lease still covers timeoutMs (delivery-worker.ts).
  const attemptStarted = performance.now();
  const now = runtime.clock.now();
  if (isExpired(row.producedAt, now)) return finish(deps, row, ref, attempted, null, { state: "expired" });

  const target = await deps.targets.load(row.integrationKey);
  if (!target?.accepted) {
    // Rule 1 of the receiver routes: events wait in the queue, up to their window.
    const retryAt = Math.min(now.getTime() + HOLD_WHILE_UNDISCOVERED_MS, row.producedAt.getTime() + RETRY_WINDOW_MS);
    return finish(deps, row, ref, attempted, null, { state: "pending", retryAt: new Date(retryAt) });
  }
  // Versioning rule 3, Delivery rule 7: one major version at a time. An event planned under another
  // is never sent once a declaration of this one is accepted (decision 0049).
  if (ofAnotherContract(target, row)) {
    const retryAt = Math.min(now.getTime() + RECHECK_CONTRACT_MS, row.producedAt.getTime() + RETRY_WINDOW_MS);
    const otherwise = { state: "pending", retryAt: new Date(retryAt) } as const;
    return finish(deps, row, ref, attempted, null, { state: "superseded" }, otherwise);
  }

  const receiver = receiverTarget(target.receiverUrl, target.insecureDev, runtime.env);
  const url = receiver.baseUrl + row.path;
  // The legacy contracts: a v1/v2 route carries requestId/requestTimeStampUtc in its body and a PsapConnector token with the route's psap.* scope.
  const span = startAttemptSpan(row, url);
  const { headers: eventHeaders, legacyScope } = eventRequestHeaders(row);
  const headers = span === null ? eventHeaders : { ...eventHeaders, traceparent: span.traceparent };
  // Refused by the outbound policy (the URL as written; resolved addresses are checked when connecting).
  const refusal = refusalOf(url, receiver.target);
  // A dispatcher-side network fault (Receivers page / `workbench receiver network-fault`) stands in
  // for the network between the platform and an external receiver: the request is not sent.
  const networkFault = refusal ? "ok" : dispatcherFaultAt(target.dispatcherFault, runtime.clock.nowMs());
  let result: SendResult;
  let startedAt = runtime.clock.now();
  if (refusal) {
    result = {
      status: null,
      headers: null,
      bodyExcerpt: null,
      body: null,
      error: refusal,
      durationMs: 0,
      refused: true,
    };
  } else if (networkFault !== "ok") {
    result =
      networkFault === "refused"
        ? {
            status: null,
            headers: null,
            bodyExcerpt: null,
            body: null,
            error: "ECONNREFUSED: connection refused (simulated dispatcher-side network fault)",
            durationMs: 0,
          }
        : {
            status: null,
            headers: null,
            bodyExcerpt: null,
            body: null,
            error: `timeout: no response within ${deps.timeoutMs} ms (simulated dispatcher-side network fault)`,
            durationMs: deps.timeoutMs,
          };
  } else {
    const token = legacyScope
      ? await getServiceToken(runtime, row.agencyId, "PsapConnector", [legacyScope])
      : await getServiceToken(runtime, row.agencyId, "Publisher");
    const body = row.body === null ? null : JSON.stringify(row.body);
    startedAt = runtime.clock.now();
    result = await sendRequest({
      url,
      method: row.method,
      headers: { ...headers, authorization: `Bearer ${token}` },
      body,
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
  // Delivery rule 1: only HTTP 200 accepts an event (201 and 204 included in the failures).
  // Rule 2 counts the delay from the failure itself (the attempt's end on the workbench clock), not
  // from whenever this process got round to deciding: under load that lag reached 250 ms and more.
  const failedAt = new Date(startedAt.getTime() + result.durationMs);
  const decision = result.status === 200 ? null : decideRetry(attempt.attempt, row.producedAt, failedAt);
  const outcome: Outcome =
    decision === null
      ? { state: "delivered" }
      : "expire" in decision
        ? { state: "expired" }
        : { state: "pending", retryAt: decision.retryAt };
  // Failed while a declaration of another major version was accepted: superseded, not retried under the old one.
  if (outcome.state === "pending" && (await acceptsAnotherContract(deps, row)))
    return finish(deps, row, ref, attempted, attempt, { state: "superseded" }, outcome, span);
  return finish(deps, row, ref, attempted, attempt, outcome, undefined, span);
}

/** Whether the integration's accepted declaration (as the target loader has it now) is of another contract than the row's. */
async function acceptsAnotherContract(deps: DeliverDeps, row: ClaimedDelivery): Promise<boolean> {
  const target = await deps.targets.load(row.integrationKey);
  return target?.accepted === true && ofAnotherContract(target, row);
}

/** An accepted declaration's major version (discovery always stores one) that is not the row's contract. */
const ofAnotherContract = (target: DeliveryTarget, row: ClaimedDelivery) =>
  target.majorVersion !== null && contractOfPath(row.path) !== target.majorVersion;

/**
 * The attempt is over (or was not needed): free the worker's slot, then record the outcome. A
 * supersession the database does not confirm (record-supersession.ts) records `otherwise`. With
 * tracing on, its log lines carry the attempt span's ids, or without an attempt the change's (the
 * row's traceparent).
 */
async function finish(
  deps: DeliverDeps,
  row: ClaimedDelivery,
  ref: DeliveryRef,
  attempted: Attempted,
  attempt: AttemptRecord | null,
  outcome: Outcome,
  otherwise?: { state: "pending"; retryAt: Date },
  span: TraceSpan | null = null,
): Promise<boolean> {
  const claimNext = (await attempted(outcome.state)) === false ? undefined : deps.claimNext;
  const { db, clock } = deps.runtime;
  const recorded = { delivery: row, workerId: deps.workerId, now: clock.now(), attempt };
  // An expiry also settles the receiver's tracks, in the same transaction (record-expiry.ts).
  let rewritten: RewrittenDelivery[] = [];
  let state = outcome.state;
  let cutover: LaneCutover | null = null;
  if (outcome.state === "expired") {
    const expiry = await recordExpiry(db, recorded);
    if (!expiry) return false;
    rewritten = expiry.rewritten;
  } else if (outcome.state === "superseded") {
    // A supersession also cuts the lane over, in the same transaction (record-supersession.ts).
    const supersession = await recordSupersession(db, { ...recorded, otherwise: otherwise! });
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
    deps.runtime.logger.info(
      {
        requestId: row.requestId,
        integration: row.integrationKey,
        incidentId: row.incidentId,
        path: row.path,
        attempts,
        ...traceLogFieldsOr(span, row.traceparent),
      },
      "webhook delivery superseded: the integration's accepted declaration is of another major version",
    );
    events.emit("delivery:superseded", { ...ref, attempts, acceptedMajor: cutover!.acceptedMajor });
  }
  if (state === "expired") {
    deps.runtime.logger.warn(
      {
        requestId: row.requestId,
        integration: row.integrationKey,
        incidentId: row.incidentId,
        path: row.path,
        attempts,
        ...traceLogFieldsOr(span, row.traceparent),
      },
      "webhook delivery expired (one hour after production)",
    );
    events.emit("delivery:expired", { ...ref, attempts });
    for (const r of rewritten) {
      deps.runtime.logger.info(
        {
          requestId: r.requestId,
          integration: row.integrationKey,
          incidentId: row.incidentId,
          path: r.path,
          after: row.requestId,
          ...traceLogFieldsOr(span, row.traceparent),
        },
        "queued append rewritten into a whole-track PUT (the whole track before it expired)",
      );
      events.emit("delivery:rewritten", {
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
  }
  return true;
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
