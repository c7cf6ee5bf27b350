// One delivery as the inspector, the CLI and the Deliveries page show it:
// the columns read, and the row turned into plain JSON (ids and times as strings).
import { z } from "zod";
import type { Prisma } from "../../platform/db/client.ts";

export const ZDeliveryState = z.enum(["pending", "delivering", "delivered", "expired", "superseded"]);

export type DeliveryView = {
  /** The outbox id: the lane order (a decimal string: ids are bigints). */
  id: string;
  requestId: string;
  integration: string;
  incidentId: string;
  event: string;
  method: string;
  path: string;
  state: z.infer<typeof ZDeliveryState>;
  producedAt: string;
  nextAttemptAt: string | null;
  finishedAt: string | null;
  /** The Service-Request-Id of the lane's unfinished head this event waits behind (find-lane-heads.ts), else null. */
  waitingBehind: string | null;
  attempts: Array<{ at: string; status: number | null; error: string | null; durationMs: number }>;
};

/** What a view reads of a delivery (a Prisma `select`). */
export const DELIVERY_VIEW_SELECT = {
  id: true,
  requestId: true,
  integrationKey: true,
  incidentId: true,
  eventName: true,
  method: true,
  path: true,
  state: true,
  producedAt: true,
  nextAttemptAt: true,
  finishedAt: true,
  attempts: {
    orderBy: { attempt: "asc" },
    select: { startedAt: true, status: true, error: true, durationMs: true },
  },
} satisfies Prisma.WebhookDeliverySelect;

export function toDeliveryView(
  r: Prisma.WebhookDeliveryGetPayload<{ select: typeof DELIVERY_VIEW_SELECT }>,
  waitingBehind: string | null = null,
): DeliveryView {
  return {
    id: r.id.toString(),
    requestId: r.requestId,
    integration: r.integrationKey,
    incidentId: r.incidentId,
    event: r.eventName,
    method: r.method,
    path: r.path,
    state: r.state,
    producedAt: r.producedAt.toISOString(),
    nextAttemptAt: r.state === "pending" ? r.nextAttemptAt.toISOString() : null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    waitingBehind,
    attempts: r.attempts.map((a) => ({
      at: a.startedAt.toISOString(),
      status: a.status,
      error: a.error,
      durationMs: a.durationMs,
    })),
  };
}
