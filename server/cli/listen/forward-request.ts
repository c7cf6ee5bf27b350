// The listener's half of a forwarded request (docs/listen.md): re-issued to the forward-to URL on
// this machine, the same method, the path appended to the forward-to base, the same headers
// (the real bearer token, Service-Request-*) and body; the receiver's status, headers and body
// (at most 64 KiB, as for any attempt) go back. Any URL is allowed here, plain-http localhost
// included: it is the user's own machine that connects, never the workbench.
import http from "node:http";
import https from "node:https";
import type { TListenerAnswer, TWorkbenchFrame } from "../../webhooks/listen/listener-frames.ts";

export const FORWARD_BODY_CAP_BYTES = 64 * 1024;
/** Hop-by-hop headers, and the ones the new connection writes itself. */
const NOT_FORWARDED = new Set(["host", "connection", "content-length", "keep-alive", "transfer-encoding", "upgrade"]);
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

type Request = Extract<TWorkbenchFrame, { type: "request" }>;

/** The forward-to base as a URL without a trailing slash, or null when it is not http(s). */
export function parseForwardTo(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.search || url.hash) return null;
    return url.href.replace(/\/+$/, "");
  } catch {
    return null;
  }
}

export function forwardRequest(base: string, request: Request): Promise<TListenerAnswer> {
  const started = performance.now();
  const url = new URL(base + request.path);
  const secure = url.protocol === "https:";
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (!NOT_FORWARDED.has(name.toLowerCase())) headers[name] = value;
  if (request.body !== null) headers["content-length"] = String(Buffer.byteLength(request.body));
  return new Promise((resolve) => {
    let settled = false;
    const answer = (a: Omit<TListenerAnswer, "type" | "id" | "forwardMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ type: "response", id: request.id, ...a, forwardMs: Math.round(performance.now() - started) });
    };
    const failed = (error: string) => answer({ status: null, headers: null, body: null, error });
    const req = (secure ? https : http).request(
      url,
      { method: request.method, headers, agent: secure ? agents.https : agents.http },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        const done = (error: string | null) =>
          answer({
            status: res.statusCode ?? null,
            headers: flatten(res.headers),
            body: Buffer.concat(chunks).subarray(0, FORWARD_BODY_CAP_BYTES).toString("utf8"),
            error,
          });
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          bytes += chunk.length;
          if (bytes > FORWARD_BODY_CAP_BYTES) {
            done(`response body larger than ${FORWARD_BODY_CAP_BYTES / 1024} KiB: read stopped there`);
            req.destroy();
          }
        });
        res.on("end", () => done(null));
        res.on("aborted", () => failed("the receiver closed the connection before its response was complete"));
        res.on("error", (e: Error) => failed(describe(e)));
      },
    );
    const deadline = setTimeout(() => {
      failed(`timeout: the receiver at ${base} did not answer within ${request.deadlineMs} ms`);
      req.destroy();
    }, request.deadlineMs);
    req.on("error", (e) => failed(`${describe(e)} (forwarding to ${base})`));
    req.end(request.body ?? undefined);
  });
}

function flatten(h: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(h)
      .slice(0, 100)
      .map(([k, v]) => [k, (Array.isArray(v) ? v.join(", ") : String(v ?? "")).slice(0, 8 * 1024)]),
  );
}

function describe(e: Error & { code?: string }): string {
  return e.code ? `${e.code}: ${e.message}` : e.message;
}
