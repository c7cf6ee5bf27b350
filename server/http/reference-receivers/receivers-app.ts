// The embedded reference receivers at {PUBLIC_URL}/receivers/{key}: the
// receiver side of the v3 webhook contract (platform-interface.md, "Webhook
// receiver routes"), one per integration that delivers to /receivers/{key}.
// Each route is a pipeline: find the receiver, apply a simulated fault,
// authenticate, then the route's own step.
import { Hono, type Context, type Next } from "hono";
import type { Runtime } from "../../runtime.ts";
import { matchEventRoute } from "../../reference-receiver/event-routes.ts";
import { readCapabilities } from "../../reference-receiver/receiver-capabilities.ts";
import { createReceiverLookup } from "../../reference-receiver/receiver-lookup.ts";
import { createWebhookTokenVerifier, publisherTokenVerifier } from "../../reference-receiver/verify-webhook-token.ts";
import { applyFault } from "./apply-fault.ts";
import { authenticate } from "./authenticate.ts";
import { receiveDelivery } from "./receive-delivery.ts";
import { authenticateAbout, mountLegacyRoutes } from "./legacy-routes.ts";
import type { ReceiverEnv } from "./receiver-env.ts";

export function receiversApp(runtime: Runtime) {
  // One verifier per app, for every contract: it caches the discovery document and the JWKS it fetched.
  const verifyToken = createWebhookTokenVerifier({ authUrl: runtime.env.AUTH_URL });
  const verifyPublisher = publisherTokenVerifier(verifyToken);
  const authenticatePublisher = authenticate(verifyPublisher);
  const lookup = createReceiverLookup({ db: runtime.db });
  const app = new Hono<ReceiverEnv>();

  async function findReceiver(c: Context<ReceiverEnv>, next: Next) {
    const key = c.req.param("key")!;
    const receiver = await lookup.get(key);
    if (!receiver) return c.json({ error: "not_found", error_description: `No embedded receiver "${key}".` }, 404);
    c.set("runtime", runtime);
    c.set("receiverKey", key);
    c.set("agencyId", receiver.agencyId);
    c.set("storedFault", receiver.fault);
    c.set("receiverPath", c.req.path.slice(`/receivers/${key}`.length) || "/");
    c.set("successStatus", 200);
    c.set("rejectToken", false);
    return next();
  }

  function requireEventRoute(c: Context<ReceiverEnv>, next: Next) {
    if (!matchEventRoute(c.req.method, c.get("receiverPath")))
      return c.json(
        { error: "not_found", error_description: `No v3 route ${c.req.method} ${c.get("receiverPath")}.` },
        404,
      );
    return next();
  }

  // No 413 here: a delivery's body is read after authentication, bounded by what is stored
  // (read-delivery-body.ts, Delivery rule 4).
  app.use("/:key/*", findReceiver, applyFault);

  // /health: ordinary HTTP semantics, 200 when the connector is available. It
  // carries no incident data, so it asks for no token (only /about declares 401/403).
  app.get("/:key/health", (c) => c.json({ status: "ok" }));

  // /about: the stored declaration. Declaring 3.x, the receiver is v3-only: the
  // legacy PsapConnector credential gets 401 (spec, "Discovery"). Declaring 1.x/2.x
  // it accepts PsapConnector too (the legacy contracts, legacy-routes.ts).
  app.get("/:key/about", authenticateAbout(runtime, verifyToken), async (c) =>
    c.json(await readCapabilities({ db: runtime.db, key: c.get("receiverKey") })),
  );

  app.on(["POST", "PUT", "PATCH"], "/:key/v3/*", requireEventRoute, authenticatePublisher, receiveDelivery);
  mountLegacyRoutes(app, runtime, verifyToken); // /v1 and /v2 beside /v3 (Versioning rule 3)
  return app;
}
