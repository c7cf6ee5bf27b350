import { createCallerFactory, createTRPCRouter } from "./trpc.ts";
import { clockRouter } from "./routers/clock.ts";
import { conformanceRouter } from "./routers/conformance.ts";
import { directoryRouter } from "./routers/directory.ts";
import { systemRouter } from "./routers/system.ts";
import { identityRouter } from "./routers/identity.ts";
import { deliveriesRouter } from "./routers/deliveries.ts";
import { integrationsRouter } from "./routers/integrations.ts";
import { receiversRouter } from "./routers/receivers.ts";
import { inboundRouter } from "./routers/inbound.ts";
import { simulatorRouter } from "./routers/simulator.ts";
import { incidentsRouter } from "./routers/incidents.ts";
import { portalRouter } from "./routers/portal.ts";
import { accessRouter } from "./routers/access.ts";
import { retentionRouter } from "./routers/retention.ts";
import { callsRouter } from "./routers/calls.ts";

/** The dashboard's API; add each feature's router here. */
export const appRouter = createTRPCRouter({
  clock: clockRouter,
  conformance: conformanceRouter,
  directory: directoryRouter,
  system: systemRouter,
  identity: identityRouter,
  deliveries: deliveriesRouter,
  integrations: integrationsRouter,
  receivers: receiversRouter,
  inbound: inboundRouter,
  simulator: simulatorRouter,
  incidents: incidentsRouter,
  portal: portalRouter,
  access: accessRouter,
  retention: retentionRouter,
  calls: callsRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller (server components, tests). */
export const createCaller = createCallerFactory(appRouter);
