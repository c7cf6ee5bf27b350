// The reference receivers: capabilities, faults, what they recorded, replicas.
import { z } from "zod";
import { integratorProcedure, viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { setReceiverFault } from "../../reference-receiver/integration-faults.ts";
import { setDispatcherNetworkFault } from "../../webhooks/admin/set-dispatcher-fault.ts";
import {
  describeReceiver,
  listReceiverRecords,
  listReceivers,
  listReplicas,
} from "../../reference-receiver/list-receivers.ts";
import { setReceiverCapabilities } from "../../reference-receiver/receiver-capabilities.ts";

const ZKey = z.string().min(1).max(100);
const ZFault = z.object({
  key: ZKey,
  mode: z.string().min(1).max(40),
  for: z.string().max(20).optional(),
  at: z.string().max(40).optional(),
});

export const receiversRouter = createTRPCRouter({
  list: viewerProcedure.query(({ ctx }) => listReceivers({ db: ctx.db, clock: ctx.clock })),
  get: viewerProcedure
    .input(z.object({ key: ZKey }))
    .query(({ ctx, input }) => describeReceiver({ db: ctx.db, clock: ctx.clock, key: input.key })),
  setCapabilities: integratorProcedure
    .input(
      z.object({
        key: ZKey,
        set: z.record(z.string(), z.boolean()).optional(),
        version: z.string().max(20).optional(),
        allowsMonitoring: z.boolean().optional(),
      }),
    )
    .mutation(({ ctx, input }) => setReceiverCapabilities({ db: ctx.db, clock: ctx.clock, ...input })),
  setFault: integratorProcedure
    .input(ZFault)
    .mutation(({ ctx, input }) => setReceiverFault({ db: ctx.db, clock: ctx.clock, ...input })),
  setNetworkFault: integratorProcedure
    .input(ZFault)
    .mutation(({ ctx, input }) => setDispatcherNetworkFault({ db: ctx.db, clock: ctx.clock, ...input })),
  events: viewerProcedure
    .input(
      z.object({
        key: ZKey,
        incidentId: z.string().max(100).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      }),
    )
    .query(({ ctx, input }) => listReceiverRecords({ db: ctx.db, ...input })),
  replicas: viewerProcedure
    .input(
      z.object({
        key: ZKey,
        incidentId: z.string().max(100).optional(),
        limit: z.number().int().min(1).max(500).optional(),
      }),
    )
    .query(({ ctx, input }) => listReplicas({ db: ctx.db, ...input })),
});
