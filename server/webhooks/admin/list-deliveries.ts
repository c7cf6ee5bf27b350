// The outbox as the CLI (`workbench deliveries --json`) and the Deliveries page
// show it: oldest first, each with its attempts.
import { z } from "zod";
import type { DbClient } from "../../platform/db/client.ts";
import { DELIVERY_VIEW_SELECT, type DeliveryView, toDeliveryView, ZDeliveryState } from "./delivery-view.ts";
import { findLaneHeads, lanesToAsk, waitingBehindOf } from "./find-lane-heads.ts";

export const ZListDeliveriesInput = z.object({
  incidentId: z.uuid().optional(),
  integration: z.string().min(1).max(100).optional(),
  state: ZDeliveryState.optional(),
  limit: z.number().int().min(1).max(5_000).default(500),
});
export type TListDeliveriesInput = z.input<typeof ZListDeliveriesInput>;

export async function listDeliveries(options: { db: DbClient; input: TListDeliveriesInput }): Promise<DeliveryView[]> {
  const input = ZListDeliveriesInput.parse(options.input);
  // The newest `limit` rows, printed oldest first.
  const rows = await options.db.webhookDelivery.findMany({
    where: { incidentId: input.incidentId, integrationKey: input.integration, state: input.state },
    orderBy: { id: "desc" },
    take: input.limit,
    select: DELIVERY_VIEW_SELECT,
  });
  const views = rows.reverse().map((r) => toDeliveryView(r));
  const heads = await findLaneHeads(options.db, lanesToAsk(views));
  return views.map((d) => ({ ...d, waitingBehind: waitingBehindOf(d, heads) }));
}
