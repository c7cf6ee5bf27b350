/**
 * The dashboard's API (tRPC v11), wired the create-t3-app way.
 *
 * 1. CONTEXT: what every procedure sees: the process runtime (db, clock, logger, env) and,
 *    resolved on first use, who is calling.
 * 2. INITIALIZATION: superjson transformer and the error formatter (AppError → its row of the error table).
 * 3. ROUTER & PROCEDURES: the building blocks routers/ use.
 *
 * Every dashboard procedure names the least role it needs (viewerProcedure,
 * integratorProcedure, adminProcedure; the role is also its `meta`, which a test
 * reads to prove no procedure was left without one). In local mode (loopback bind)
 * the caller is the developer at the machine, acting as admin; in shared mode a
 * signed-in member or an API token, and anything else is UNAUTHORIZED. The portal
 * router's procedures are gated by the dispatcher's portal session instead.
 */
import { randomUUID } from "node:crypto";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { getRuntime } from "../runtime.ts";
import { isAppError } from "../platform/errors.ts";
import { asDatabaseUnavailable } from "../platform/db/database-unavailable.ts";
import { APP_ERRORS } from "../platform/error-codes.ts";
import { describeInputIssues } from "./describe-input-issues.ts";
import type { Runtime } from "../runtime.ts";
import { describeRefusal, resolveCaller, type CallerResolution } from "../workbench/access/resolve-caller.ts";
import { roleAllows, type Role } from "../workbench/access/roles.ts";

/* 1. CONTEXT */
export async function createTRPCContext(opts: { headers: Headers; runtime?: Runtime }) {
  const runtime = opts.runtime ?? getRuntime();
  let resolution: Promise<CallerResolution> | undefined;
  // Resolved once per request, and only by procedures that need it (the portal's do not).
  const resolveDashboardCaller = () => (resolution ??= resolveCaller(runtime, opts.headers));
  return { ...runtime, headers: opts.headers, resolveDashboardCaller };
}
export type TRPCContext = Awaited<ReturnType<typeof createTRPCContext>>;

/* 2. INITIALIZATION */
/** `role`: the least dashboard role a procedure needs; `access: "portal"`: gated by the portal session instead. */
export type ProcedureMeta = { role?: Role; access?: "portal" };

const t = initTRPC
  .context<TRPCContext>()
  .meta<ProcedureMeta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error, ctx, input }) {
      const cause = error.cause;
      if (error.code === "INTERNAL_SERVER_ERROR" && !isAppError(cause)) {
        // Unexpected: the details go to the log under a traceId, the client gets the traceId only.
        const traceId = randomUUID();
        ctx?.logger.error({ err: cause ?? error, traceId, path: shape.data.path }, "tRPC procedure failed");
        return {
          ...shape,
          message: `Internal error (traceId ${traceId}).`,
          data: { ...shape.data, stack: undefined, appCode: null, zodIssues: null, traceId },
        };
      }
      // A refused input: one line per issue (field, what it got, what it takes) instead of zod's issue array as JSON.
      const zodIssues = cause instanceof ZodError ? describeInputIssues(cause, input) : null;
      return {
        ...shape,
        message: zodIssues ? zodIssues.map((i) => i.message).join("; ") : shape.message,
        data: {
          ...shape.data,
          // Stack traces stay on the server.
          stack: undefined,
          appCode: isAppError(cause) ? cause.wireCode : null,
          zodIssues,
        },
      };
    },
  });

/** Domain AppErrors become tRPC errors with the tRPC code of their row in the error table, the domain code kept. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  // A database outage, however it surfaced, is DatabaseUnavailable (SERVICE_UNAVAILABLE): the dashboard shows its banner.
  const appError = result.ok
    ? undefined
    : isAppError(result.error.cause)
      ? result.error.cause
      : asDatabaseUnavailable(result.error.cause);
  if (appError) {
    throw new TRPCError({ code: APP_ERRORS[appError.code].trpc, message: appError.message, cause: appError });
  }
  return result;
});

/* 3. ROUTER & PROCEDURES */
export const createCallerFactory = t.createCallerFactory;
export const createTRPCRouter = t.router;
export const publicProcedure = t.procedure.use(mapAppErrors);

/** The caller must hold the procedure's role (meta.role): UNAUTHORIZED without credentials, FORBIDDEN below the role. */
export const requireRole = t.middleware(async ({ ctx, meta, next }) => {
  const needed = meta?.role;
  if (!needed) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "This procedure names no role." });
  const resolution = await ctx.resolveDashboardCaller();
  if ("refused" in resolution)
    throw new TRPCError({ code: "UNAUTHORIZED", message: describeRefusal(resolution.refused) });
  const { caller } = resolution;
  if (!roleAllows(caller.role, needed))
    throw new TRPCError({
      code: "FORBIDDEN",
      message: `This needs the ${needed} role; ${caller.name} has the ${caller.role} role.`,
    });
  return next({ ctx: { caller } });
});

/** Read-only views of the workbench. */
export const viewerProcedure = publicProcedure.meta({ role: "viewer" }).use(requireRole);
/** Driving tests: partner console, reference receivers, faults, simulator, conformance, resends. */
export const integratorProcedure = publicProcedure.meta({ role: "integrator" }).use(requireRole);
/** Configuration and secrets: clients, keys, seed reset, clock, integrations, members and API tokens. */
export const adminProcedure = publicProcedure.meta({ role: "admin" }).use(requireRole);
