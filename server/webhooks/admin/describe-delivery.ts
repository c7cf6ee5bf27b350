// One delivery in full for the inspector: the request body, every attempt's
// request and response (the Bearer token was redacted when the attempt was
// recorded: deliver-event.ts), and the incident's snapshot at this change next
// to the one before it, for the diff.
import { AppError } from "../../platform/errors.ts";
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import type { WebhookAttempt } from "../../platform/db/generated/client.ts";
import { expiresAtOf } from "../outbox/delivery-window.ts";
import { changeSnapshotSql } from "../../incidents/track-storage.ts";
import { explainRewrite } from "./explain-rewrite.ts";
import { traceIdOf } from "../../platform/tracing/tracing.ts";
import { findLaneHeads, waitingBehindOf } from "./find-lane-heads.ts";

/**
 * `traceUiUrl`: TRACE_UI_URL, a trace UI's URL with `{traceId}`: an attempt sent with a traceparent
 * (tracing on: docs/observability.md) links to its trace there.
 */
export async function describeDelivery(options: { db: DbClient; requestId: string; traceUiUrl?: string }) {
  const { db, requestId } = options;
  const d = await db.webhookDelivery.findUnique({
    where: { requestId },
    include: { attempts: { orderBy: { attempt: "asc" } } },
  });
  if (!d) throw new AppError("DeliveryNotFound", `No delivery with Service-Request-Id ${requestId}.`);
  // A resend re-plans from the latest snapshot with changeSeq of that change; seq 0 has no previous.
  // Snapshots assembled at each seq: their tracks live in IncidentPosition (incidents/track-storage.ts).
  const changes = await db.$queryRaw<Array<{ seq: number; kind: string; snapshot: unknown }>>(Prisma.sql`
    SELECT seq, kind, ${changeSnapshotSql()} AS snapshot FROM "IncidentChange"
    WHERE "incidentId" = ${d.incidentId}::uuid AND seq IN (${d.changeSeq}, ${d.changeSeq - 1})`);
  const at = changes.find((c) => c.seq === d.changeSeq) ?? null;
  const before = changes.find((c) => c.seq === d.changeSeq - 1) ?? null;
  const lane = { integration: d.integrationKey, incidentId: d.incidentId };
  const waiting = d.state === "pending" && d.attempts.length === 0;
  const [heads, capabilities] = await Promise.all([
    waiting ? findLaneHeads(db, [lane]) : new Map<string, string>(),
    at
      ? db.webhookCapabilities.findUnique({ where: { integrationKey: d.integrationKey }, select: { flags: true } })
      : null,
  ]);
  return {
    id: d.id.toString(),
    requestId: d.requestId,
    integration: d.integrationKey,
    agencyId: d.agencyId,
    incidentId: d.incidentId,
    changeSeq: d.changeSeq,
    change: at ? { seq: at.seq, kind: at.kind } : null,
    event: d.eventName,
    method: d.method,
    path: d.path,
    body: d.body ?? null,
    state: d.state,
    producedAt: d.producedAt.toISOString(),
    nextAttemptAt: d.state === "pending" ? d.nextAttemptAt.toISOString() : null,
    expiresAt: expiresAtOf(d.producedAt).toISOString(),
    finishedAt: d.finishedAt?.toISOString() ?? null,
    waitingBehind: waitingBehindOf({ ...lane, requestId: d.requestId, state: d.state, attempts: d.attempts }, heads),
    /** Why the event sent is not the one the change names (capability rules), else null: explain-rewrite.ts. */
    rewriteNote: explainRewrite({
      changeKind: at?.kind ?? null,
      eventName: d.eventName,
      path: d.path,
      flags: capabilities?.flags ?? null,
    }),
    snapshot: at?.snapshot ?? null,
    previousSnapshot: before?.snapshot ?? null,
    attempts: d.attempts.map((a) => withTrace(attemptView(a), options.traceUiUrl)),
  };
}

/** One attempt as the inspector and exports show it: the request as sent (token redacted), the response as read. */
export const attemptView = (a: WebhookAttempt) => ({
  attempt: a.attempt,
  at: a.startedAt.toISOString(),
  durationMs: a.durationMs,
  url: a.url,
  requestHeaders: a.requestHeaders as Record<string, string>,
  status: a.status,
  responseHeaders: (a.responseHeaders ?? null) as Record<string, string> | null,
  responseBody: a.bodyExcerpt,
  error: a.error,
});
export type AttemptView = ReturnType<typeof attemptView>;

/** The attempt's trace: the id of the traceparent it was sent with, and its page in the trace UI when one is set. */
function withTrace(view: AttemptView, traceUiUrl: string | undefined) {
  const traceId = traceIdOf(view.requestHeaders.traceparent);
  const traceUrl = traceId && traceUiUrl ? traceUiUrl.replaceAll("{traceId}", traceId) : null;
  return { ...view, traceId, traceUrl };
}
