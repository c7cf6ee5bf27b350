// One outbound HTTP request, recorded as the dashboard shows it (CONTRIBUTING.md,
// 'Transactional outbox'): redirects never
// followed (a 3xx is just a failed delivery), connection and TLS errors captured
// as text. Used by deliveries, /about discovery and the conformance kit.
//
// - A TOTAL deadline (connect + send + the whole response), not an idle timeout:
//   a receiver trickling a byte a second kept an idle-timed attempt open past its
//   delivery lease, and a second worker then sent the same head beside it.
// - A bounded read: at most RESPONSE_BODY_CAP_BYTES of the body are read; past
//   that the socket is destroyed and the result says so.
// - The outbound policy (platform/network/outbound-policy.ts) for a user-given
//   URL: checked on the URL before the request, and on every resolved address in
//   the socket's lookup, so a refused target is never connected to. The embedded
//   receivers (on PUBLIC_URL, the operator's own origin) go without it.
// node:http(s) rather than fetch: per-request certificate checks and lookup, and
// msw intercepts it in tests.
// - An embedded receiver on an origin this process serves (always, for its own
//   PUBLIC_URL) is called in-process: the same request and answer through the same
//   HTTP app, without the loopback socket (docs/decisions/0028). The same deadline and
//   read bound apply, and a receiver's simulated "down" drops the in-process
//   connection as it would the socket.
import http from "node:http";
import https from "node:https";
import {
  inProcessHandler,
  InProcessConnection,
  responseBytes,
  InProcessRequest,
  type InProcessHandler,
} from "../../platform/network/in-process-origins.ts";
import { policyLookup, OutboundRefusedError } from "../../platform/network/outbound-lookup.ts";
import { refuseOutbound, refusePlainHttp, type OutboundPolicy } from "../../platform/network/outbound-policy.ts";
import { sendThroughListener } from "../listen/listener-transport.ts";
import { REQUEST_TIMEOUT_MS } from "../../webhook-contracts/delivery-rules.ts";

export const RESPONSE_BODY_CAP_BYTES = 64 * 1024;
const BODY_EXCERPT_CHARS = 2_000;
/** The connection ended without an answer: what node:http reports for a socket closed by the server. */
const HANG_UP = "ECONNRESET: socket hang up";
const BODY_TOO_LARGE = `response body larger than ${RESPONSE_BODY_CAP_BYTES / 1024} KiB: read stopped there and the connection closed`;
const noResponseWithin = (timeoutMs: number) => `timeout: no response within ${timeoutMs} ms`;
const STOPPED = "stopped: the caller gave up (its process is stopping)";
/** A request that got no answer (not sent, or failed before one): its reason as the result's error. */
export const unsent = (error: string, durationMs: number, refused?: true): SendResult => ({
  status: null,
  headers: null,
  bodyExcerpt: null,
  body: null,
  error,
  durationMs,
  ...(refused ? { refused } : {}),
});

type Agents = { http: http.Agent; https: https.Agent; httpsInsecure: https.Agent };
// Keep-alive pools: a lane's next event reuses the connection of the last one.
const newAgents = (): Agents => ({
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  httpsInsecure: new https.Agent({ keepAlive: true, maxSockets: 64, rejectUnauthorized: false }),
});
const embeddedAgents = newAgents();
// Checked connections never share a pool with the embedded ones, nor with another policy's:
// a pooled socket was checked against the policy it was opened under.
const checkedAgents = new WeakMap<OutboundPolicy, Agents>();

/**
 * Where a request goes: the workbench's own embedded receivers, a user-given URL under the policy,
 * or the integration's attached listener (a frame on its connection: listen/listener-transport.ts).
 */
export type OutboundTargetKind =
  | { kind: "embedded"; insecureDev: boolean }
  | { kind: "checked"; insecureDev: boolean; policy: OutboundPolicy }
  | { kind: "listener"; insecureDev: boolean; integrationKey: string };

export type SendRequestOptions = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  target: OutboundTargetKind;
  /** The whole attempt's deadline: connect, send and the response read in full. */
  timeoutMs?: number;
  /** When the attempt began (elapsedMs's scale), if before this call: the deadline counts from there. */
  attemptStartedMs?: number;
  /** Elapsed-time source (performance.now): a duration, not a point in workbench time. */
  elapsedMs?: () => number;
  /** Ends the attempt early, as its deadline would (the caller is stopping). */
  signal?: AbortSignal;
};

export type SendResult = {
  status: number | null;
  headers: Record<string, string> | null;
  /** The first characters of the body, for the record. */
  bodyExcerpt: string | null;
  /** The body as read (at most RESPONSE_BODY_CAP_BYTES), for callers that parse it. */
  body: string | null;
  error: string | null;
  durationMs: number;
  /** True when the request was refused by the outbound policy and never sent. */
  refused?: boolean;
};

export function sendRequest(options: SendRequestOptions): Promise<SendResult> {
  const elapsed = options.elapsedMs ?? (() => performance.now());
  const started = elapsed();
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const remainingMs = Math.max(1, timeoutMs - (started - (options.attemptStartedMs ?? started)));
  const { target } = options;
  const refusal = refusalOf(options.url, target);
  if (refusal) return Promise.resolve(unsent(refusal, 0, true));
  if (target.kind === "listener")
    return sendThroughListener(
      { ...options, integrationKey: target.integrationKey, remainingMs, bodyCapBytes: RESPONSE_BODY_CAP_BYTES },
      { excerptChars: BODY_EXCERPT_CHARS, started, elapsed },
    );
  const url = new URL(options.url);
  const headers = {
    ...options.headers,
    "content-length": String(options.body !== null ? Buffer.byteLength(options.body) : 0),
  };
  if (options.signal?.aborted) return Promise.resolve(unsent(STOPPED, Math.round(elapsed() - started)));
  const own = target.kind === "embedded" ? inProcessHandler(url.origin) : undefined;
  if (own) return sendInProcess(own, url, options, headers, { timeoutMs, remainingMs, started, elapsed });
  const secure = url.protocol === "https:";
  const agents = target.kind === "embedded" ? embeddedAgents : agentsFor(target.policy);
  const agent = secure ? (target.insecureDev ? agents.httpsInsecure : agents.https) : agents.http;
  const lookup = target.kind === "checked" ? policyLookup(url, target, target.policy) : undefined;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    let responseHeaders: Record<string, string> | null = null;
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (error: string | null, refused = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener("abort", stop);
      const body = status === null ? null : Buffer.concat(chunks).toString("utf8");
      resolve({
        status,
        headers: responseHeaders,
        bodyExcerpt: body === null ? null : body.slice(0, BODY_EXCERPT_CHARS),
        body,
        error,
        durationMs: Math.round(elapsed() - started),
        ...(refused ? { refused } : {}),
      });
    };
    const req = (secure ? https : http).request(
      url,
      { method: options.method, headers, agent, ...(lookup ? { lookup } : {}) },
      (res) => {
        status = res.statusCode ?? null;
        responseHeaders = flattenHeaders(res.headers);
        res.on("data", (chunk: Buffer) => {
          const room = RESPONSE_BODY_CAP_BYTES - bytes;
          chunks.push(chunk.subarray(0, Math.max(0, room)));
          bytes += chunk.length;
          if (bytes > RESPONSE_BODY_CAP_BYTES) {
            finish(BODY_TOO_LARGE);
            req.destroy();
          }
        });
        res.on("end", () => finish(null));
        res.on("error", (e) => finish(describeError(e)));
        res.on("aborted", () => finish("the connection closed before the response was complete"));
      },
    );
    // The whole attempt, whatever the receiver trickles: the lease counts on it (delivery-worker.ts).
    const deadline = setTimeout(() => {
      finish(
        status === null ? noResponseWithin(timeoutMs) : `timeout: the response was not complete within ${timeoutMs} ms`,
      );
      req.destroy();
    }, remainingMs);
    const stop = () => {
      finish(STOPPED);
      req.destroy();
    };
    options.signal?.addEventListener("abort", stop, { once: true });
    req.on("error", (e) => finish(describeError(e), e instanceof OutboundRefusedError));
    req.end(options.body ?? undefined);
  });
}

/** One request to an origin this process serves, answered by its HTTP app (same result shape, same bounds). */
function sendInProcess(
  handler: InProcessHandler,
  url: URL,
  options: SendRequestOptions,
  headers: Record<string, string>,
  time: { timeoutMs: number; remainingMs: number; started: number; elapsed: () => number },
): Promise<SendResult> {
  const connection = new InProcessConnection();
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener("abort", stop);
      resolve({ ...result, durationMs: Math.round(time.elapsed() - time.started) });
      connection.destroy(); // a handler holding the request (a "timeout" fault) lets go
    };
    const failed = (error: string) => finish({ status: null, headers: null, bodyExcerpt: null, body: null, error });
    const deadline = setTimeout(() => failed(noResponseWithin(time.timeoutMs)), time.remainingMs);
    const stop = () => failed(STOPPED);
    options.signal?.addEventListener("abort", stop, { once: true });
    connection.once("close", () => failed(HANG_UP));
    const request = new InProcessRequest(url.href, options.method, headers, options.body, connection);
    Promise.resolve()
      .then(() => handler(request as unknown as Request, { connection }))
      .then(async (response) => {
        if (connection.destroyed) return failed(HANG_UP);
        const bytes = await responseBytes(response);
        const body = bytes.subarray(0, RESPONSE_BODY_CAP_BYTES).toString("utf8");
        finish({
          status: response.status,
          headers: Object.fromEntries(response.headers),
          bodyExcerpt: body.slice(0, BODY_EXCERPT_CHARS),
          body,
          error: bytes.length > RESPONSE_BODY_CAP_BYTES ? BODY_TOO_LARGE : null,
        });
      })
      .catch((e: Error) => failed(describeError(e)));
  });
}

/** The refusal of a request before anything is sent (the URL as written), or null. */
export function refusalOf(rawUrl: string, target: OutboundTargetKind): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return `refused: "${rawUrl}" is not a URL`;
  }
  if (target.kind === "listener") return null; // the listener's machine reaches its receiver, not this one
  return target.kind === "checked" ? refuseOutbound(url, target, target.policy) : refusePlainHttp(url, target);
}

function agentsFor(policy: OutboundPolicy): Agents {
  let agents = checkedAgents.get(policy);
  if (!agents) checkedAgents.set(policy, (agents = newAgents()));
  return agents;
}

function flattenHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v ?? "")]));
}

function describeError(e: Error & { code?: string }): string {
  if (e instanceof OutboundRefusedError) return e.message;
  return e.code ? `${e.code}: ${e.message}` : e.message;
}
