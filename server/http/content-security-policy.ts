// The Content-Security-Policy of every response (docs/decisions/0056-roles-on-screen-and-a-strict-csp.md).
// Scripts run only from the workbench's own origin, and inline ones only with the request's nonce:
// Next reads the nonce from the policy the main thread adds to the page request
// (withPageNonce) and writes it on every script it renders; Hono's HTML pages (/auth/*,
// /connect/authorize) have no script at all. Inline styles stay allowed: React's style attributes
// (maps, gauges, the timeline) cannot carry a nonce, and a style cannot run code.
import { randomBytes } from "node:crypto";
import type http from "node:http";

export type PolicyOptions = {
  /** The request's nonce (pages Next renders); none on everything else. */
  nonce?: string;
  /** `next dev` evaluates its modules (React's dev tools, hot reload): 'unsafe-eval' then, never built. */
  dev?: boolean;
  /** Where forms may post, and so where their redirects may lead (Chromium checks those too). */
  formActions: readonly string[];
};

export function contentSecurityPolicy({ nonce, dev = false, formActions }: PolicyOptions): string {
  const scripts = ["'self'", ...(nonce ? [`'nonce-${nonce}'`] : []), ...(dev ? ["'unsafe-eval'"] : [])];
  return [
    "default-src 'self'",
    `script-src ${scripts.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${["'self'", ...new Set(formActions)].join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** 128 random bits, base64: what a nonce must be (unguessable, fresh per response). */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

const POLICY_HEADERS = ["content-security-policy", "content-security-policy-report-only"];

/**
 * Gives a request bound for Next its policy with a fresh nonce: on the response, and on the request
 * itself, where Next looks for the nonce (a client's own policy headers are dropped first, so a
 * request cannot choose its nonce). Both `headers` and `rawHeaders` change: the dashboard's thread is
 * reached through a proxy that forwards the raw list.
 */
export function withPageNonce(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: Omit<PolicyOptions, "nonce">,
): string {
  const nonce = createNonce();
  const policy = contentSecurityPolicy({ ...options, nonce });
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (!POLICY_HEADERS.includes(req.rawHeaders[i]!.toLowerCase()))
      raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  raw.push("content-security-policy", policy);
  req.rawHeaders.splice(0, req.rawHeaders.length, ...raw);
  delete req.headers["content-security-policy-report-only"];
  req.headers["content-security-policy"] = policy;
  res.setHeader("content-security-policy", policy);
  return nonce;
}
