// The delivery inspector's list: newest first, keyset-paginated on the
// delivery id (the lane order), so page N costs what page 1 costs. Filters map
// onto indexes: (integrationKey, id), (incidentId, id), (state, id) — see the
// migration `inspector_indexes`; an 8-character short id is a range on the
// requestId unique index or on (incidentId, id). Measured with 100,000 rows:
// bench/inspector.bench.ts. The heads that pending events wait behind come from
// one more statement per page (find-lane-heads.ts), never one per row.
import { z } from "zod";
import type { DbClient, Prisma } from "../../platform/db/client.ts";
import { DELIVERY_VIEW_SELECT, type DeliveryView, toDeliveryView, ZDeliveryState } from "./delivery-view.ts";
import { findLaneHeads, lanesToAsk, waitingBehindOf } from "./find-lane-heads.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The 8-character short form the dashboard shows of every id (its first UUID group). */
export const SHORT_ID = /^[0-9a-f]{8}$/i;

/** The time windows the inspector offers, resolved against the workbench clock. */
export const PRODUCED_WITHIN_MS = {
  "15m": 15 * 60_000,
  "1h": 3_600_000,
  "6h": 6 * 3_600_000,
  "24h": 86_400_000,
} as const;

export const ZInspectDeliveriesInput = z.object({
  integration: z.string().min(1).max(100).optional(),
  /** A whole incident id, or its 8-character short form. */
  incidentId: z.union([z.uuid(), z.string().regex(SHORT_ID, "an incident id or its first 8 characters")]).optional(),
  state: ZDeliveryState.optional(),
  /** A Service-Request-Id or incident id (exact, or its first 8 characters), else a part of the event name or path. */
  search: z.string().trim().max(200).optional(),
  /** Only deliveries with an attempt answered with this HTTP status. */
  status: z.number().int().min(100).max(599).optional(),
  /** Only deliveries with at least one attempt not answered 200 (a status or an error). */
  failedOnly: z.boolean().optional(),
  /** Produced within this window before the workbench's now (needs `now`). */
  within: z.enum(["15m", "1h", "6h", "24h"]).optional(),
  producedFrom: z.iso.datetime().optional(),
  producedTo: z.iso.datetime().optional(),
  /** The last id of the previous page (a decimal string: ids are bigints). */
  cursor: z
    .string()
    .regex(/^\d{1,19}$/)
    .nullish(),
  limit: z.number().int().min(1).max(200).default(100),
});
export type TInspectDeliveriesInput = z.input<typeof ZInspectDeliveriesInput>;

export type InspectedDelivery = DeliveryView;

/** The UUIDs that start with a short id, as a range the column's b-tree index answers. */
export function shortIdRange(short: string): { gte: string; lte: string } {
  const s = short.toLowerCase();
  return { gte: `${s}-0000-0000-0000-000000000000`, lte: `${s}-ffff-ffff-ffff-ffffffffffff` };
}

export function buildDeliveryFilter(
  input: z.output<typeof ZInspectDeliveriesInput>,
  now?: Date,
): Prisma.WebhookDeliveryWhereInput {
  const incident = input.incidentId;
  const where: Prisma.WebhookDeliveryWhereInput = {
    integrationKey: input.integration,
    incidentId: incident && SHORT_ID.test(incident) ? shortIdRange(incident) : incident?.toLowerCase(),
    state: input.state,
  };
  const and: Prisma.WebhookDeliveryWhereInput[] = [];
  const search = input.search;
  if (search) {
    const s = search.toLowerCase();
    const text = [
      { eventName: { contains: search, mode: "insensitive" as const } },
      { path: { contains: search, mode: "insensitive" as const } },
    ];
    and.push({
      OR: UUID.test(search)
        ? [{ requestId: s }, { incidentId: s }]
        : SHORT_ID.test(search)
          ? [{ requestId: shortIdRange(s) }, { incidentId: shortIdRange(s) }, ...text]
          : text,
    });
  }
  if (input.status !== undefined) and.push({ attempts: { some: { status: input.status } } });
  if (input.failedOnly) and.push({ attempts: { some: { OR: [{ status: null }, { status: { not: 200 } }] } } });
  const from = [
    input.producedFrom ? Date.parse(input.producedFrom) : null,
    input.within && now ? now.getTime() - PRODUCED_WITHIN_MS[input.within] : null,
  ].filter((t) => t !== null);
  if (from.length || input.producedTo)
    where.producedAt = {
      gte: from.length ? new Date(Math.max(...from)) : undefined,
      lte: input.producedTo ? new Date(input.producedTo) : undefined,
    };
  if (and.length) where.AND = and;
  if (input.cursor) where.id = { lt: BigInt(input.cursor) };
  return where;
}

export async function inspectDeliveries(options: { db: DbClient; input: TInspectDeliveriesInput; now?: Date }) {
  const input = ZInspectDeliveriesInput.parse(options.input);
  const rows = await options.db.webhookDelivery.findMany({
    where: buildDeliveryFilter(input, options.now),
    orderBy: { id: "desc" },
    take: input.limit + 1,
    select: DELIVERY_VIEW_SELECT,
  });
  const page = rows.slice(0, input.limit).map((r) => toDeliveryView(r));
  const heads = await findLaneHeads(options.db, lanesToAsk(page));
  const items: InspectedDelivery[] = page.map((d) => ({ ...d, waitingBehind: waitingBehindOf(d, heads) }));
  return { items, nextCursor: rows.length > input.limit ? items.at(-1)!.id : null };
}
