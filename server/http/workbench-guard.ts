// The checks every request to the workbench's HTTP server passes before Hono or
// Next sees it, as named steps:
//   0. checkPath: the path is in the one form every reader of it agrees on (canonical-path.ts):
//      no dot segments, encoded slashes, backslashes, empty segments, `;` or NUL (400), so the
//      gate, the router, Hono and Next all judge the same path.
//   1. checkHost: the Host header names one of the workbench's own origins, an
//      ALLOWED_HOSTS entry, or (local mode only) a loopback name on any port. A
//      page on another site that rebinds its DNS name to this machine's address
//      sends its own name as Host, so it is refused (421) before anything runs.
//   2. refuseCrossSiteWrite: on the dashboard's paths (everything Next serves), a
//      state-changing method must come from the workbench's own origin
//      (Sec-Fetch-Site, Origin; see require-same-origin.ts). The protocol surfaces
//      keep their own rules: the token endpoint is called cross-origin by design.
//   3. limitDashboardApi: /api/trpc refuses a declared body over 1 MiB (413) and a
//      URL over 8 KiB (414) from the headers alone; the route bounds the rest.
//   4. setSecurityHeaders: `Cache-Control: no-store` unless a surface sets its own, the Content-Security-Policy (content-security-policy.ts), anti-framing
//      and the usual headers on every response; a page Next renders gets a nonce (pagePolicy).
import { randomBytes } from "node:crypto";
import type http from "node:http";
import superjson from "superjson";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import type { Env } from "../platform/env.ts";
import { isLoopbackHost } from "../platform/network/loopback.ts";
import { isTrpcPath, MAX_TRPC_BODY_BYTES, MAX_TRPC_URL_LENGTH } from "../api/bound-trpc-request.ts";
import { isProtocolPath } from "./protocol-app.ts";
import { isCrossSiteRequest, originsOf } from "./identity/require-same-origin.ts";
import { contentSecurityPolicy, withPageNonce } from "./content-security-policy.ts";
import { nonCanonicalPath, normalisedPath } from "./canonical-path.ts";
import { buildProblem } from "./inbound/problem.ts";
import { AppError } from "../platform/errors.ts";

type GuardEnv = Pick<
  Env,
  "PUBLIC_URL" | "AUTH_URL" | "BASE_URL" | "PORTAL_URL" | "ALLOWED_HOSTS" | "ACCESS_MODE" | "NODE_ENV"
>;
type Refusal = {
  status: number;
  code: keyof typeof TRPC_ERROR_CODES_BY_KEY;
  message: string;
  /** The OAuth-style `error` on /api and the protocol paths (default: by status). */
  error?: string;
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Sent on every response, beside the Content-Security-Policy. frame-ancestors 'none' (in the policy)
 * and X-Frame-Options stop clickjacking of the dashboard, the portal and the login form.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
};

/** host[:port] as a URL would write it (lower case, default port omitted), or null for anything else. */
function normalizeHost(value: string | undefined): { host: string; hostname: string } | null {
  if (!value || /[\s/\\?#@]/.test(value)) return null;
  try {
    const url = new URL(`http://${value}`);
    return { host: url.host, hostname: url.hostname };
  } catch {
    return null;
  }
}

export function createWorkbenchGuard(env: GuardEnv) {
  const ownUrls = [env.PUBLIC_URL, env.AUTH_URL, env.BASE_URL, env.PORTAL_URL];
  const ownOrigins = originsOf(ownUrls);
  // Forms post to the workbench's own origins only (the sign-in forms redirect between them).
  const formActions = [...ownOrigins];
  const policy = contentSecurityPolicy({ formActions });
  const ownHosts = new Set(
    ownUrls.flatMap((u) => {
      const url = new URL(u);
      // An https origin's Host arrives as name or name:443; http's as name or name:80 (normalised away).
      return url.port === "" && url.protocol === "https:" ? [url.host, `${url.hostname}:443`] : [url.host];
    }),
  );
  const allowedExact = new Set(env.ALLOWED_HOSTS.filter((h) => /:\d+$/.test(h) && !/^[^[]*:.*:/.test(h)));
  const allowedAnyPort = new Set(env.ALLOWED_HOSTS.filter((h) => !allowedExact.has(h)));

  function checkPath(req: http.IncomingMessage): Refusal | null {
    const problem = nonCanonicalPath(req.url ?? "/");
    return problem ? { status: 400, code: "BAD_REQUEST", message: problem, error: "invalid_request" } : null;
  }

  function checkHost(req: http.IncomingMessage): Refusal | null {
    const host = normalizeHost(req.headers.host);
    if (host && (ownHosts.has(host.host) || allowedExact.has(host.host) || allowedAnyPort.has(host.hostname)))
      return null;
    if (host && env.ACCESS_MODE === "local" && isLoopbackHost(host.hostname)) return null;
    return {
      status: 421,
      code: "BAD_REQUEST",
      message: "This workbench does not answer to that host name. Add it to ALLOWED_HOSTS if it is yours.",
    };
  }

  function refuseCrossSiteWrite(req: http.IncomingMessage): Refusal | null {
    if (SAFE_METHODS.has(req.method ?? "GET")) return null;
    if (!isCrossSiteRequest(browserRequest(req), ownOrigins)) return null;
    return {
      status: 403,
      code: "FORBIDDEN",
      message: "Cross-site requests may not change the workbench: send it from the workbench's own pages.",
    };
  }

  function limitDashboardApi(req: http.IncomingMessage): Refusal | null {
    if ((req.url ?? "").length > MAX_TRPC_URL_LENGTH) {
      return {
        status: 414,
        code: "BAD_REQUEST",
        message: `The request URL is longer than ${MAX_TRPC_URL_LENGTH} characters.`,
      };
    }
    const length = Number(req.headers["content-length"] ?? 0);
    if (length > MAX_TRPC_BODY_BYTES)
      return {
        status: 413,
        code: "PAYLOAD_TOO_LARGE",
        message: `The request body exceeds ${MAX_TRPC_BODY_BYTES} bytes.`,
      };
    return null;
  }

  /** Answers a refused request itself and returns true; false lets the request through. */
  function guardRequest(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    res.setHeader("content-security-policy", policy);
    // Nothing is kept by a browser or a proxy unless its surface says so (the discovery document,
    // the signing keys, Next's hashed static files): every authenticated or secret-bearing answer
    // is no-store without each route having to remember it.
    res.setHeader("cache-control", "no-store");
    const hostRefused = checkHost(req);
    const pathRefused = hostRefused ? null : checkPath(req);
    // A refused path is answered in the format of the surface its normalised form names.
    const pathname = pathRefused ? normalisedPath(req.url ?? "/") : (req.url ?? "/").split("?", 1)[0]!;
    const isDashboardApi = isTrpcPath(pathname);
    const refusal =
      hostRefused ??
      pathRefused ??
      (isProtocolPath(pathname) ? null : refuseCrossSiteWrite(req)) ??
      (isDashboardApi ? limitDashboardApi(req) : null);
    if (!refusal) return false;
    // Node discards an unread request body once the response has ended.
    sendRefusal(res, refusal, pathname, { isDashboardApi, baseUrl: env.BASE_URL });
    return true;
  }

  /** A WebSocket upgrade (Next's dev reload) passes the Host and path checks and, from a browser, the same-origin one. */
  function acceptsUpgrade(req: http.IncomingMessage): boolean {
    if (checkHost(req) || checkPath(req)) return false;
    return !isCrossSiteRequest(browserRequest(req), ownOrigins);
  }

  /** For a request about to reach Next: the policy with a fresh nonce, on the response and the request. */
  function pagePolicy(req: http.IncomingMessage, res: http.ServerResponse): void {
    withPageNonce(req, res, { formActions, dev: env.NODE_ENV !== "production" });
  }

  return { guardRequest, acceptsUpgrade, pagePolicy, policy };
}

const firstValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** What a browser says about where a request comes from; the request's own origin as this (plain HTTP) server sees it. */
function browserRequest(req: http.IncomingMessage) {
  const host = normalizeHost(req.headers.host)?.host ?? "";
  return {
    origin: req.headers.origin,
    secFetchSite: firstValue(req.headers["sec-fetch-site"]),
    requestOrigin: `http://${host}`,
  };
}

/**
 * In the path's own format: tRPC's error shape on /api/trpc, problem+json on /v1, {error,
 * error_description} on /api and the other protocol paths, text elsewhere.
 */
function sendRefusal(
  res: http.ServerResponse,
  refusal: Refusal,
  pathname: string,
  surface: { isDashboardApi: boolean; baseUrl: string },
) {
  let body: string;
  let type: string;
  if (surface.isDashboardApi) {
    const shape = {
      message: refusal.message,
      code: TRPC_ERROR_CODES_BY_KEY[refusal.code],
      data: { code: refusal.code, httpStatus: refusal.status },
    };
    body = JSON.stringify({ error: superjson.serialize(shape) });
    type = "application/json";
  } else if (refusal.status === 400 && (pathname === "/v1" || pathname.startsWith("/v1/"))) {
    const error = new AppError("ValidationFailed", refusal.message, [{ field: "path", message: refusal.message }]);
    const problem = buildProblem({
      baseUrl: surface.baseUrl,
      error,
      instance: pathname,
      traceId: randomBytes(8).toString("hex"),
    });
    body = JSON.stringify(problem);
    type = "application/problem+json";
  } else if (pathname.startsWith("/api/") || isProtocolPath(pathname)) {
    body = JSON.stringify({
      error: refusal.error ?? (refusal.status === 403 ? "cross_site_request" : "misdirected_request"),
      error_description: refusal.message,
    });
    type = "application/json";
  } else {
    body = `${refusal.message}\n`;
    type = "text/plain; charset=utf-8";
  }
  res.writeHead(refusal.status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
  });
  res.end(body);
}
