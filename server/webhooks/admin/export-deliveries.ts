// Deliveries as a self-contained file for a bug report: one delivery, or all of
// an incident's (optionally for one integration), each with its request (method,
// path, body, headers as sent with the token redacted), every attempt's response
// (status, headers, the body excerpt the engine kept), errors and timing. The
// file needs nothing else to be read, and `replay-deliveries.ts` sends the
// sequence it holds again to another receiver.
import { z } from "zod";
import type { DbClient } from "../../platform/db/client.ts";
import { AppError } from "../../platform/errors.ts";
import { expiresAtOf } from "../outbox/delivery-window.ts";
import { attemptView, type AttemptView } from "./describe-delivery.ts";
import type { TExportDeliveriesInput } from "./export-file-name.ts";
import { DELIVERY_EXPORT_FORMAT, DELIVERY_EXPORT_VERSION, MAX_EXPORTED_DELIVERIES } from "./delivery-export-format.ts";

export const ZExportDeliveriesInput = z.union([
  z.object({ requestId: z.uuid() }).strict(),
  z.object({ incidentId: z.uuid(), integration: z.string().min(1).max(64).optional() }).strict(),
]);
export type { TExportDeliveriesInput };

export type ExportedDelivery = {
  requestId: string;
  integration: string;
  agencyId: string;
  incidentId: string;
  changeSeq: number;
  event: string;
  method: string;
  path: string;
  body: unknown;
  state: "pending" | "delivering" | "delivered" | "expired" | "superseded";
  producedAt: string;
  expiresAt: string;
  finishedAt: string | null;
  attempts: AttemptView[];
};

export type DeliveryExport = {
  format: typeof DELIVERY_EXPORT_FORMAT;
  version: typeof DELIVERY_EXPORT_VERSION;
  exportedAt: string;
  /** The workbench the deliveries come from (its public URL) and its clock when exported. */
  source: { workbench: string };
  selection: TExportDeliveriesInput;
  /** In lane order (the order the engine sends them in), oldest first. */
  deliveries: ExportedDelivery[];
  /** More deliveries matched than MAX_EXPORTED_DELIVERIES: the newest were left out. */
  truncated: boolean;
};

export async function exportDeliveries(options: {
  db: DbClient;
  publicUrl: string;
  now: Date;
  input: TExportDeliveriesInput;
}): Promise<DeliveryExport> {
  const input = ZExportDeliveriesInput.parse(options.input);
  const where =
    "requestId" in input
      ? { requestId: input.requestId }
      : { incidentId: input.incidentId, ...(input.integration ? { integrationKey: input.integration } : {}) };
  const rows = await options.db.webhookDelivery.findMany({
    where,
    orderBy: { id: "asc" },
    take: MAX_EXPORTED_DELIVERIES + 1,
    include: { attempts: { orderBy: { attempt: "asc" } } },
  });
  if (rows.length === 0)
    throw "requestId" in input
      ? new AppError("DeliveryNotFound", `No delivery with Service-Request-Id ${input.requestId}.`)
      : new AppError(
          "DeliveryNotFound",
          `No delivery of incident ${input.incidentId}${input.integration ? ` to integration "${input.integration}"` : ""}.`,
        );
  return {
    format: DELIVERY_EXPORT_FORMAT,
    version: DELIVERY_EXPORT_VERSION,
    exportedAt: options.now.toISOString(),
    source: { workbench: options.publicUrl },
    selection: input,
    deliveries: rows.slice(0, MAX_EXPORTED_DELIVERIES).map((d) => ({
      requestId: d.requestId,
      integration: d.integrationKey,
      agencyId: d.agencyId,
      incidentId: d.incidentId,
      changeSeq: d.changeSeq,
      event: d.eventName,
      method: d.method,
      path: d.path,
      body: d.body ?? null,
      state: d.state,
      producedAt: d.producedAt.toISOString(),
      expiresAt: expiresAtOf(d.producedAt).toISOString(),
      finishedAt: d.finishedAt?.toISOString() ?? null,
      attempts: d.attempts.map(attemptView),
    })),
    truncated: rows.length > MAX_EXPORTED_DELIVERIES,
  };
}
