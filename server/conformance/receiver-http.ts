// The kit's HTTP client towards the receiver under test. Like the engine's
// deliverer: a timeout, `redirect: 'manual'` (a redirect is an answer, not a
// hop to follow), and a result record (status, timing, body excerpt) the report
// shows as-is. A network failure is an answer too (status 0), never a throw.
import { randomUUID } from "node:crypto";
import type { Clock } from "../platform/clock/clock.ts";

/** Longer than any sane receiver needs; the engine's own delivery timeout is of the same order. */
export const REQUEST_TIMEOUT_MS = 10_000;
const EXCERPT_CHARS = 300;

export type ReceiverRequest = {
  method: "GET" | "POST" | "PUT" | "PATCH";
  /** Below the receiver URL, e.g. "/about", "/v3/incidents". */
  path: string;
  /** Bearer token; null sends no Authorization header. */
  token: string | null;
  body?: unknown;
  /** v3 event headers (Service-Request-Id / -Timestamp); /about and /health carry none. */
  event?: { requestId?: string; timestamp?: string };
};

export type ReceiverResponse = {
  /** 0 when no HTTP answer arrived (connection refused, timeout, TLS failure). */
  status: number;
  ms: number;
  bodyExcerpt: string;
  json?: unknown;
  networkError?: string;
  requestId?: string;
};

export async function sendToReceiver(options: { receiverUrl: string; clock: Clock; request: ReceiverRequest }): Promise<ReceiverResponse> {
  const { receiverUrl, clock, request } = options;
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.token !== null) headers.authorization = `Bearer ${request.token}`;
  if (request.body !== undefined) headers["content-type"] = "application/json";
  let requestId: string | undefined;
  if (request.event) {
    requestId = request.event.requestId ?? randomUUID();
    headers["service-request-id"] = requestId;
    headers["service-request-timestamp"] = request.event.timestamp ?? clock.now().toISOString();
  }
  const started = performance.now();
  try {
    const res = await fetch(`${receiverUrl}${request.path}`, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      redirect: "manual",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    const ms = Math.round(performance.now() - started);
    let json: unknown;
    try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
    return { status: res.status, ms, bodyExcerpt: text.slice(0, EXCERPT_CHARS), json, requestId };
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    return { status: 0, ms, bodyExcerpt: "", networkError: describeNetworkError(error), requestId };
  }
}

function describeNetworkError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError") return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  if (e.cause?.code) return `${e.cause.code}${e.cause.message ? ` (${e.cause.message})` : ""}`;
  if (e.cause?.message) return e.cause.message; // e.g. "bad port": fetch refuses ports like 9 or 6000
  return e.message ?? String(error);
}

/** "answered 201" / "did not answer: ECONNREFUSED" — for reasons in the report. */
export function describeAnswer(res: ReceiverResponse): string {
  return res.status === 0 ? `did not answer: ${res.networkError}` : `answered ${res.status}`;
}
