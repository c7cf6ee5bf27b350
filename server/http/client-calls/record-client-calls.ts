// The client half of an integration, at the door of /connect/token, /v1 and /Account
// (docs/api-calls.md, decision 0072), as named steps:
//   1. faultFor: an inbound fault set for this client (or all), surface and operation answers the
//      call instead of the platform (nothing reaches a handler: a faulted write records no change);
//   2. the platform answers (next), noting what the call changed (call-context.ts);
//   3. recordCall: what was asked and answered is handed to the recorder's queue after the answer
//      is complete, and written off the request path (client-calls/record-calls.ts).
import { setTimeout as delay } from "node:timers/promises";
import { randomBytes } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { decodeJwt } from "jose";
import type { Runtime } from "../../runtime.ts";
import { MAX_KEPT_BODY_BYTES, type CallSurface } from "../../client-calls/call-record.ts";
import { callRecorderOf } from "../../client-calls/record-calls.ts";
import { describeCall, operationTemplate, surfaceOf } from "../../client-calls/describe-call.ts";
import { currentClientFaults } from "../../client-calls/current-faults.ts";
import { faultFor, spendFaultCall, type ClientFault } from "../../client-calls/client-faults.ts";
import { AppError } from "../../platform/errors.ts";
import { buildProblem } from "../inbound/problem.ts";
import { startCallEffects } from "./call-context.ts";
import { requestLogFields } from "../trace-requests.ts";

/** Bodies longer than this are not read after the answer (the handler refused them unread). */
const MAX_READ_BYTES = 4 * MAX_KEPT_BODY_BYTES;
const KEPT_TYPES = /^(application\/([a-z0-9.+-]*\+)?json|application\/x-www-form-urlencoded|text\/)/i;

export function recordClientCalls(runtime: Runtime): MiddlewareHandler {
  const recorder = callRecorderOf(runtime);
  const { db, clock } = runtime;
  return async function recordClientCall(c, next) {
    const surface = surfaceOf(c.req.path);
    if (!surface) return next();
    const receivedAt = clock.now();
    const started = performance.now();
    const effects = startCallEffects(c);
    const faults = await currentClientFaults(runtime);
    let fault: ClientFault | undefined;
    if (faults.length > 0) {
      const call = { clientId: await clientIdOf(c, surface), surface, operation: operationOf(c, surface) };
      fault = faultFor(faults, call, clock.nowMs(), Math.random() * 100);
      if (fault && !(await spendFaultCall(db, fault))) fault = undefined;
    }
    let response: Response | undefined;
    if (fault) response = await answerFault(c, fault, runtime, next);
    else await next();
    if (response) c.res = response;
    const durationMs = performance.now() - started;
    try {
      const call = describeCall(
        {
          receivedAt,
          durationMs,
          method: c.req.method,
          path: c.req.path,
          query: queryOf(c.req.url),
          headers: c.req.raw.headers,
          ...(await requestBodyOf(c)),
          status: fault?.mode === "reset" ? 0 : c.res.status,
          responseHeaders: c.res.headers,
          responseBody: await responseBodyOf(c.res),
          fault: fault ? fault.mode : null,
          incidentId: effects.incidentId ?? incidentIdInPath(c.req.path),
          changeSeqs: effects.changeSeqs,
          traceId: (c.get("traceId" as never) as string | undefined) ?? null,
        },
        clock.nowMs(),
      );
      if (call) recorder.record(call);
    } catch (err) {
      // Recording never fails a call.
      runtime.logger.warn({ err, ...requestLogFields(c) }, "an API call could not be described for the inspector");
    }
  };
}

const queryOf = (url: string) => {
  const at = url.indexOf("?");
  return at === -1 ? "" : url.slice(at + 1);
};

function operationOf(c: Context, surface: CallSurface): string {
  if (surface === "v1") return operationTemplate(c.req.method, c.req.path);
  return `${c.req.method} ${c.req.path}`;
}

const incidentIdInPath = (path: string) =>
  /^\/v1\/incidents\/([0-9a-f-]{36})(\/|$)/i.exec(path)?.[1]?.toLowerCase() ?? null;

/** Who the call is from, before the platform has looked: the form's client_id, or the bearer token's (unverified). */
async function clientIdOf(c: Context, surface: CallSurface): Promise<string | null> {
  if (surface === "token") {
    if (c.req.method !== "POST" || Number(c.req.header("content-length") ?? 0) > MAX_READ_BYTES) return null;
    const body = await c.req.text().catch(() => "");
    return new URLSearchParams(body).get("client_id");
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (!bearer) return null;
  try {
    const claims = decodeJwt(bearer);
    return typeof claims.client_id === "string" ? claims.client_id : null;
  } catch {
    return null;
  }
}

/** The body as the handler read it (Hono keeps it), or read now when small; its size. */
async function requestBodyOf(c: Context): Promise<{ requestBody: string | null; requestBytes: number }> {
  const declared = Number(c.req.header("content-length") ?? 0);
  const type = c.req.header("content-type") ?? "";
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS")
    return { requestBody: null, requestBytes: 0 };
  if (declared > MAX_READ_BYTES || (type && !KEPT_TYPES.test(type)))
    return { requestBody: null, requestBytes: declared };
  try {
    const text = await c.req.text();
    return { requestBody: text === "" ? null : text, requestBytes: Buffer.byteLength(text) };
  } catch {
    return { requestBody: null, requestBytes: declared };
  }
}

async function responseBodyOf(res: Response): Promise<string | null> {
  const type = res.headers.get("content-type") ?? "";
  if (!type || !KEPT_TYPES.test(type) || Number(res.headers.get("content-length") ?? 0) > MAX_READ_BYTES) return null;
  try {
    return await res.clone().text();
  } catch {
    return null;
  }
}

/** The fault's answer in the surface's own format; `slow` adds its latency, then the platform answers. */
async function answerFault(c: Context, fault: ClientFault, runtime: Runtime, next: () => Promise<void>) {
  const surface = fault.surface;
  const mode = fault.mode;
  if (mode.startsWith("slow:")) {
    await delay(Number(mode.slice(5)));
    await next();
    return undefined;
  }
  if (mode === "reset") {
    const socket = (c.env as { incoming?: { socket?: { destroy: () => void } } } | undefined)?.incoming?.socket;
    socket?.destroy();
    return new Response(null, { status: 599 });
  }
  const status = mode === "http-503" ? 503 : mode === "http-429" ? 429 : 500;
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (status !== 500) headers["retry-after"] = String(fault.retryAfterS);
  const description = `An injected fault answers this call (${mode}, set on the workbench's API calls page).`;
  if (surface === "token") {
    const error = status === 500 ? "server_error" : "temporarily_unavailable";
    return Response.json({ error, error_description: description }, { status, headers });
  }
  const code = status === 429 ? "TooManyRequests" : "InternalServerError";
  const error = new AppError(code, description);
  const problem = buildProblem({
    baseUrl: runtime.env.BASE_URL,
    error,
    instance: c.req.path,
    traceId: randomBytes(8).toString("hex"),
  });
  // /Account's problems are typed under {auth_url}/errors (render-account-problem.ts).
  if (surface === "account") problem.type = `${runtime.env.AUTH_URL}/errors/${problem.code}`;
  return new Response(JSON.stringify({ ...problem, status }), {
    status,
    headers: { ...headers, "content-type": "application/problem+json" },
  });
}
