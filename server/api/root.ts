import { createCallerFactory, createTRPCRouter } from "./trpc.ts";
import { clockRouter } from "./routers/clock.ts";
import { conformanceRouter } from "./routers/conformance.ts";
import { directoryRouter } from "./routers/directory.ts";
import { systemRouter } from "./routers/system.ts";
import { identityRouter } from "./routers/identity.ts";
import { inboundRouter } from "./routers/inbound.ts";
import { deliveriesRouter } from "./routers/deliveries.ts";
import { integrationsRouter } from "./routers/integrations.ts";
import { receiversRouter } from "./routers/receivers.ts";

/** The dashboard's API; add each feature's router here. */
export const appRouter = createTRPCRouter({
  clock: clockRouter,
  conformance: conformanceRouter,
  directory: directoryRouter,
  system: systemRouter,
  identity: identityRouter,
  inbound: inboundRouter,
  deliveries: deliveriesRouter,
  integrations: integrationsRouter,
  receivers: receiversRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller (server components, tests). */
export const createCaller = createCallerFactory(appRouter);
