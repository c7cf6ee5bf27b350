// Browser form POSTs of the identity server (the login form, sign-out) must come
// from one of the workbench's own pages: a cross-site form could otherwise sign a
// victim's browser into the attacker's account (login CSRF) or sign them out.
// SameSite=Lax covers the cookie-carrying case only, so the Origin header
// (sent by every current browser on POST) is checked as well. Pages posting here
// must not use referrer policy no-referrer: browsers then send `Origin: null`.
//
// The same rule guards every state-changing request to the dashboard
// (server/http/workbench-guard.ts), which also reads Sec-Fetch-Site.
import type { MiddlewareHandler } from "hono";

/** The origins of the given URLs (scheme, host and port), for isCrossSiteRequest. */
export const originsOf = (urls: string[]) => new Set(urls.map((u) => new URL(u).origin));

/**
 * A request a browser sent from another site. `Origin` (when present) must be the
 * request's own origin or one of `allowedOrigins`; `Sec-Fetch-Site` (when present
 * and checked) must say same-origin, or none (typed into the address bar). A
 * request with neither header (the CLI, curl, a server) is not a browser's
 * cross-site request and passes: forging it needs no browser.
 */
export function isCrossSiteRequest(
  request: { origin: string | undefined; secFetchSite?: string | undefined; requestOrigin: string },
  allowedOrigins: Set<string>,
): boolean {
  const site = request.secFetchSite?.toLowerCase();
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  return (
    request.origin !== undefined && request.origin !== request.requestOrigin && !allowedOrigins.has(request.origin)
  );
}

/**
 * Origin only: the sign-out form is posted from the portal ({portal_url}) to
 * {auth_url}, which may be another origin of the same site, so Sec-Fetch-Site
 * would say same-site there.
 */
export function requireSameOrigin(allowedOrigins: string[]): MiddlewareHandler {
  const origins = originsOf(allowedOrigins);
  return async function checkOrigin(c, next) {
    const request = { origin: c.req.header("origin"), requestOrigin: new URL(c.req.url).origin };
    if (isCrossSiteRequest(request, origins)) return c.text("Cross-site form posts are not accepted.", 403);
    await next();
  };
}
