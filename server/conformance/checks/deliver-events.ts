// Delivering the kit's events as the engine would: a fresh Publisher token, the
// v3 headers, one incident's events strictly in order, stopping at the first
// one the receiver does not accept with exactly 200.
import { fail, type CheckOutcome } from "../check.ts";
import type { ConformanceContext } from "../context.ts";
import { describeAnswer, type ReceiverRequest, type ReceiverResponse } from "../receiver-http.ts";
import { declares, type TAbout } from "../about.schema.ts";
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";

export type EventStep = {
  method: ReceiverRequest["method"];
  path: string;
  body?: unknown;
  requestId?: string;
  timestamp?: string;
};

export const RETRY_RISK =
  "The service retries a failed delivery with backoff for one hour, and every later event for this incident waits behind it; after the hour the event is lost.";

/** One delivery with the valid Publisher token; its answer time feeds the p95 check (refusals of forged tokens do not). */
export async function deliver(ctx: ConformanceContext, step: EventStep): Promise<ReceiverResponse> {
  const res = await ctx.send({
    method: step.method,
    path: step.path,
    body: step.body,
    token: await ctx.tokens.publisher(),
    event: { requestId: step.requestId, timestamp: step.timestamp },
  });
  if (res.status !== 0) ctx.state.latenciesMs.push(res.ms);
  return res;
}

/** A failure outcome when the answer is not exactly 200, naming the step. */
export function unless200(res: ReceiverResponse, step: Pick<EventStep, "method" | "path">): CheckOutcome | undefined {
  if (res.status === 200) return undefined;
  const what = `${step.method} ${step.path}`;
  if (res.status >= 200 && res.status < 300) {
    return fail(
      `${what} answered ${res.status}.`,
      `Only 200 accepts a delivery: the service counts ${res.status} as a failure. ${RETRY_RISK}`,
    );
  }
  return fail(
    `${what} ${describeAnswer(res)}${res.bodyExcerpt ? `: ${res.bodyExcerpt.slice(0, 120)}` : ""}.`,
    RETRY_RISK,
  );
}

/** Delivers steps in order; the first answer other than 200 fails the check. */
export async function deliverInOrder(ctx: ConformanceContext, steps: EventStep[]): Promise<CheckOutcome | undefined> {
  for (const step of steps) {
    const failed = unless200(await deliver(ctx, step), step);
    if (failed) return failed;
  }
  return undefined;
}

/**
 * How an incident starts for this receiver (rule 6): the create event when it
 * declares incident.created, then one whole-track PUT per non-empty source when
 * it declares caller.trackReplaced (sent even without incident.created).
 */
export function openingSteps(about: TAbout, incident: TIncidentSnapshotV3): EventStep[] {
  const steps: EventStep[] = [];
  if (declares(about, "created")) steps.push({ method: "POST", path: "/v3/incidents", body: { incident } });
  if (declares(about, "caller.trackReplaced")) {
    for (const t of incident.caller.tracks)
      steps.push({
        method: "PUT",
        path: `/v3/incidents/${incident.id}/caller/track`,
        body: { source: t.source, track: t.track },
      });
  }
  return steps;
}

export const incidentPath = (incident: { id: string }, sub: string) => `/v3/incidents/${incident.id}/${sub}`;
