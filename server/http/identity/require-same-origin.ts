// Browser form POSTs of the identity server (the login form, sign-out) must come
// from one of the workbench's own pages: a cross-site form could otherwise sign a
// victim's browser into the attacker's account (login CSRF) or sign them out.
// SameSite=Lax covers the cookie-carrying case only, so the Origin header
// (sent by every current browser on POST) is checked as well. Pages posting here
// must not use referrer policy no-referrer: browsers then send `Origin: null`.
import type { MiddlewareHandler } from "hono";

export function requireSameOrigin(allowedOrigins: string[]): MiddlewareHandler {
  const origins = new Set(allowedOrigins.map((o) => new URL(o).origin));
  return async function checkOrigin(c, next) {
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== new URL(c.req.url).origin && !origins.has(origin)) {
      return c.text("Cross-site form posts are not accepted.", 403);
    }
    await next();
  };
}
