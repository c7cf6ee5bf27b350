// The outbox as the CLI (`workbench deliveries --json`) and the Deliveries page
// show it: oldest first, each with its attempts.
import { z } from "zod";
import type { DbClient } from "../../platform/db/client.ts";

export const ZListDeliveriesInput = z.object({
  incidentId: z.uuid().optional(),
  integration: z.string().min(1).optional(),
  state: z.enum(["pending", "delivering", "delivered", "expired"]).optional(),
  limit: z.number().int().min(1).max(5_000).default(500),
});
export type TListDeliveriesInput = z.input<typeof ZListDeliveriesInput>;

export type DeliveryView = {
  requestId: string;
  integration: string;
  incidentId: string;
  event: string;
  method: string;
  path: string;
  state: "pending" | "delivering" | "delivered" | "expired";
  producedAt: string;
  nextAttemptAt: string | null;
  attempts: Array<{ at: string; status: number | null; error: string | null; durationMs: number }>;
};

export async function listDeliveries(options: { db: DbClient; input: TListDeliveriesInput }): Promise<DeliveryView[]> {
  const input = ZListDeliveriesInput.parse(options.input);
  // The newest `limit` rows, printed oldest first.
  const rows = await options.db.webhookDelivery.findMany({
    where: { incidentId: input.incidentId, integrationKey: input.integration, state: input.state },
    orderBy: { id: "desc" },
    take: input.limit,
    include: { attempts: { orderBy: { attempt: "asc" } } },
  });
  return rows.reverse().map((r) => ({
    requestId: r.requestId,
    integration: r.integrationKey,
    incidentId: r.incidentId,
    event: r.eventName,
    method: r.method,
    path: r.path,
    state: r.state,
    producedAt: r.producedAt.toISOString(),
    nextAttemptAt: r.state === "pending" ? r.nextAttemptAt.toISOString() : null,
    attempts: r.attempts.map((a) => ({
      at: a.startedAt.toISOString(),
      status: a.status,
      error: a.error,
      durationMs: a.durationMs,
    })),
  }));
}
