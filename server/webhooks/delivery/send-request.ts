// One outbound HTTP request, recorded as the dashboard shows it (CONTRIBUTING.md,
// 'Transactional outbox'): a 10 s timeout, redirects never followed (a 3xx is just a failed
// delivery), connection and TLS errors captured as text. node:http(s) rather
// than fetch: it lets an insecure-dev integration skip certificate checks per
// request (fetch needs undici's Agent for that) and msw intercepts it in tests.
import http from "node:http";
import https from "node:https";

export const REQUEST_TIMEOUT_MS = 10_000;
const BODY_EXCERPT_CHARS = 2_000;

// Keep-alive pools: a lane's next event reuses the connection of the last one.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
  httpsInsecure: new https.Agent({ keepAlive: true, maxSockets: 64, rejectUnauthorized: false }),
};

export type SendRequestOptions = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  /** Only for insecure-dev integrations: accept any certificate. */
  allowInvalidCertificate?: boolean;
  timeoutMs?: number;
  /** Elapsed-time source (performance.now): a duration, not a point in workbench time. */
  elapsedMs?: () => number;
};

export type SendResult = {
  status: number | null;
  headers: Record<string, string> | null;
  bodyExcerpt: string | null;
  error: string | null;
  durationMs: number;
};

export function sendRequest(options: SendRequestOptions): Promise<SendResult> {
  const elapsed = options.elapsedMs ?? (() => performance.now());
  const started = elapsed();
  const url = new URL(options.url);
  const secure = url.protocol === "https:";
  const agent = secure ? (options.allowInvalidCertificate ? agents.httpsInsecure : agents.https) : agents.http;
  const headers = { ...options.headers, ...(options.body !== null ? { "content-length": String(Buffer.byteLength(options.body)) } : { "content-length": "0" }) };
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, durationMs: Math.round(elapsed() - started) });
    };
    const req = (secure ? https : http).request(url, { method: options.method, headers, agent }, (res) => {
      let excerpt = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        if (excerpt.length < BODY_EXCERPT_CHARS) excerpt += chunk.slice(0, BODY_EXCERPT_CHARS - excerpt.length);
      });
      res.on("end", () => finish({ status: res.statusCode ?? null, headers: flattenHeaders(res.headers), bodyExcerpt: excerpt, error: null }));
      res.on("error", (e) => finish({ status: res.statusCode ?? null, headers: flattenHeaders(res.headers), bodyExcerpt: excerpt, error: describeError(e) }));
    });
    req.setTimeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS, () => {
      req.destroy(new Error(`timeout: no response within ${options.timeoutMs ?? REQUEST_TIMEOUT_MS} ms`));
    });
    req.on("error", (e) => finish({ status: null, headers: null, bodyExcerpt: null, error: describeError(e) }));
    req.end(options.body ?? undefined);
  });
}

function flattenHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v ?? "")]));
}

function describeError(e: Error & { code?: string }): string {
  return e.code ? `${e.code}: ${e.message}` : e.message;
}
