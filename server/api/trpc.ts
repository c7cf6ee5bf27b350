/**
 * The dashboard's API (tRPC v11), wired the create-t3-app way.
 *
 * 1. CONTEXT: what every procedure sees: the process runtime (db, clock, logger, env).
 * 2. INITIALIZATION: superjson transformer and the error formatter (AppError → code).
 * 3. ROUTER & PROCEDURES: the building blocks routers/ use.
 *
 * The dashboard is a local developer tool: its API is open on the workbench's
 * own origin (like the rest of the dashboard). Portal pages are gated by the
 * portal session instead.
 */
import { randomUUID } from "node:crypto";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { getRuntime } from "../platform/runtime.ts";
import { isAppError } from "../platform/errors.ts";
import { describeInputIssues } from "./describe-input-issues.ts";

/* 1. CONTEXT */
export async function createTRPCContext(opts: { headers: Headers }) {
  const runtime = getRuntime();
  return { ...runtime, headers: opts.headers };
}
export type TRPCContext = Awaited<ReturnType<typeof createTRPCContext>>;

/* 2. INITIALIZATION */
const t = initTRPC.context<TRPCContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error, ctx, input }) {
    const cause = error.cause;
    if (error.code === "INTERNAL_SERVER_ERROR" && !isAppError(cause)) {
      // Unexpected: the details go to the log under a traceId, the client gets the traceId only.
      const traceId = randomUUID();
      ctx?.logger.error({ err: cause ?? error, traceId, path: shape.data.path }, "tRPC procedure failed");
      return { ...shape, message: `Internal error (traceId ${traceId}).`, data: { ...shape.data, stack: undefined, appCode: null, zodIssues: null, traceId } };
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
        appCode: isAppError(cause) ? cause.code : null,
        zodIssues,
      },
    };
  },
});

/** Domain AppErrors become tRPC errors with the matching HTTP-ish code and the domain code kept. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const appError = result.error.cause;
    const code = appError.status === 404 ? "NOT_FOUND" : appError.status === 409 ? "CONFLICT" : appError.status === 403 ? "FORBIDDEN" : appError.status === 401 ? "UNAUTHORIZED" : appError.status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST";
    throw new TRPCError({ code, message: appError.message, cause: appError });
  }
  return result;
});

/* 3. ROUTER & PROCEDURES */
export const createCallerFactory = t.createCallerFactory;
export const createTRPCRouter = t.router;
export const publicProcedure = t.procedure.use(mapAppErrors);
