// The token check of every v3 route (platform-interface.md, "Webhook receiver
// token validation"); refusals are answered 401 and recorded, the token never is.
import type { Context, Next } from "hono";
import type { PublisherTokenVerifier } from "../../reference-receiver/verify-webhook-token.ts";
import { recordDelivery } from "../../reference-receiver/record-delivery.ts";
import { matchEventRoute } from "../../reference-receiver/event-routes.ts";
import type { ReceiverEnv } from "./receiver-env.ts";

export function authenticate(verify: PublisherTokenVerifier) {
  return async function authenticatePublisher(c: Context<ReceiverEnv>, next: Next) {
    const { db, clock } = c.get("runtime");
    const check = c.get("rejectToken")
      ? { ok: false as const, reason: "fault reject-token: every token is refused" }
      : await verify({ authorization: c.req.header("authorization"), agencyId: c.get("agencyId"), now: clock.now() });
    if (check.ok) return next();
    const match = matchEventRoute(c.req.method, c.get("receiverPath"));
    await recordDelivery({
      db,
      clock,
      input: {
        integrationKey: c.get("receiverKey"),
        method: c.req.method,
        path: c.get("receiverPath"),
        route: match?.route.flagPath ?? null,
        incidentId: match?.params.incidentId ?? null,
        serviceRequestId: c.req.header("service-request-id") ?? null,
        requestTimestamp: c.req.header("service-request-timestamp") ?? null,
        // An unauthenticated body is not kept.
        body: null,
        status: 401,
        outcome: "rejected-token",
        detail: check.reason,
      },
    });
    c.header("WWW-Authenticate", `Bearer error="invalid_token"`);
    return c.json({ error: "invalid_token", error_description: check.reason }, 401);
  };
}
