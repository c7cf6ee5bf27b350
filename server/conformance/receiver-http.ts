// The kit's HTTP client towards the receiver under test: the engine's own
// sender (send-request.ts), so the same outbound policy (checked on the URL and
// on every resolved address), the same total deadline and bounded read, and
// redirects never followed (a redirect is an answer, not a hop). A result record
// (status, timing, body excerpt) the report shows as-is; a network failure or a
// policy refusal is an answer too (status 0), never a throw.
import { randomUUID } from "node:crypto";
import type { Clock } from "../platform/clock/clock.ts";
import { REQUEST_TIMEOUT_MS as ENGINE_TIMEOUT_MS } from "../webhook-contracts/delivery-rules.ts";
import { sendRequest, type OutboundTargetKind } from "../webhooks/sending/send-request.ts";

/** The engine's own delivery timeout: a total deadline per request. */
export const REQUEST_TIMEOUT_MS = ENGINE_TIMEOUT_MS;
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

export async function sendToReceiver(options: {
  receiverUrl: string;
  target: OutboundTargetKind;
  clock: Clock;
  request: ReceiverRequest;
}): Promise<ReceiverResponse> {
  const { receiverUrl, target, clock, request } = options;
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.token !== null) headers.authorization = `Bearer ${request.token}`;
  if (request.body !== undefined) headers["content-type"] = "application/json";
  let requestId: string | undefined;
  if (request.event) {
    requestId = request.event.requestId ?? randomUUID();
    headers["service-request-id"] = requestId;
    headers["service-request-timestamp"] = request.event.timestamp ?? clock.now().toISOString();
  }
  const result = await sendRequest({
    url: `${receiverUrl}${request.path}`,
    method: request.method,
    headers,
    target,
    timeoutMs: REQUEST_TIMEOUT_MS,
    body: request.body === undefined ? null : JSON.stringify(request.body),
  });
  if (result.status === null)
    return {
      status: 0,
      ms: result.durationMs,
      bodyExcerpt: "",
      networkError: describeNetworkError(result.error),
      requestId,
    };
  const text = result.body ?? "";
  let json: unknown;
  try {
    json = text && !result.error ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: result.status, ms: result.durationMs, bodyExcerpt: text.slice(0, EXCERPT_CHARS), json, requestId };
}

function describeNetworkError(error: string | null): string {
  const timeout = /^timeout: no response within (\d+) ms/.exec(error ?? "");
  if (timeout) return `no answer within ${Number(timeout[1]) / 1000} s`;
  return error ?? "no answer";
}

/** "answered 201" / "did not answer: ECONNREFUSED" — for reasons in the report. */
export function describeAnswer(res: ReceiverResponse): string {
  return res.status === 0 ? `did not answer: ${res.networkError}` : `answered ${res.status}`;
}
