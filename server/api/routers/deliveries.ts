import { z } from "zod";
import { integratorProcedure, viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { listDeliveries, ZListDeliveriesInput } from "../../webhooks/admin/list-deliveries.ts";
import { resendIncident } from "../../webhooks/admin/resend-incident.ts";
import { inspectDeliveries, ZInspectDeliveriesInput } from "../../webhooks/admin/inspect-deliveries.ts";
import { describeDelivery } from "../../webhooks/admin/describe-delivery.ts";
import { exportDeliveries, ZExportDeliveriesInput } from "../../webhooks/admin/export-deliveries.ts";
import { replayDeliveries, ZReplayDeliveriesInput } from "../../webhooks/admin/replay-deliveries.ts";
import { resendDelivery } from "../../webhooks/admin/resend-delivery.ts";
import { integrationHealth } from "../../webhooks/admin/integration-health.ts";

export const deliveriesRouter = createTRPCRouter({
  list: viewerProcedure.input(ZListDeliveriesInput).query(({ ctx, input }) => listDeliveries({ db: ctx.db, input })),
  /** The inspector: newest first, keyset pages (`cursor` = the previous page's `nextCursor`). */
  inspect: viewerProcedure
    .input(ZInspectDeliveriesInput)
    .query(({ ctx, input }) => inspectDeliveries({ db: ctx.db, input, now: ctx.clock.now() })),
  /** Per integration: success rate of the last hour's attempts, failing since, last error. */
  health: viewerProcedure.query(({ ctx }) => integrationHealth({ db: ctx.db, now: ctx.clock.now() })),
  get: viewerProcedure
    .input(z.object({ requestId: z.uuid() }))
    .query(({ ctx, input }) =>
      describeDelivery({ db: ctx.db, requestId: input.requestId, traceUiUrl: ctx.env.TRACE_UI_URL }),
    ),
  resend: integratorProcedure
    .input(z.object({ incidentId: z.uuid(), integration: z.string().min(1).max(100).optional() }))
    .mutation(({ ctx, input }) =>
      resendIncident({ runtime: ctx, incidentId: input.incidentId, integrationKey: input.integration }),
    ),
  /** One delivery's request sent again now, outside its lane, with a new Service-Request-Id (a replay). */
  resendDelivery: integratorProcedure
    .input(z.object({ requestId: z.uuid() }))
    .mutation(({ ctx, input }) => resendDelivery({ runtime: ctx, requestId: input.requestId })),
  /** A delivery, or an incident's deliveries, as a self-contained file for a bug report. */
  export: viewerProcedure
    .input(ZExportDeliveriesInput)
    .query(({ ctx, input }) =>
      exportDeliveries({ db: ctx.db, publicUrl: ctx.env.PUBLIC_URL, now: ctx.clock.now(), input }),
    ),
  /** An export's requests sent again, in order, to an integration's receiver (not through the outbox). */
  replay: integratorProcedure
    .input(ZReplayDeliveriesInput)
    .mutation(({ ctx, input }) => replayDeliveries({ runtime: ctx, input })),
});
