// The v1 and v2 routes of the embedded receivers (the legacy contracts), mounted beside the
// v3 ones so one receiver serves the legacy and the current contract side by
// side (spec, Versioning rule 3: the cutover). Each route is a pipeline: find
// the receiver and apply a fault (shared with v3), authenticate the
// PsapConnector token with the route's psap.* scope, then record durably
// (deduplicated on the body's requestId), answer 200, and process afterwards.
import type { Context, Hono, MiddlewareHandler, Next } from "hono";
import type { Runtime } from "../../runtime.ts";
import { PSAP_READ_SCOPE, LEGACY_ROUTES, matchLegacyRoute } from "../../webhook-contracts/v2/routes.ts";
import {
  psapConnectorTokenVerifier,
  publisherTokenVerifier,
  type WebhookTokenVerifier,
} from "../../reference-receiver/verify-webhook-token.ts";
import { readCapabilities } from "../../reference-receiver/receiver-capabilities.ts";
import { LEGACY_PROBE_DETAIL } from "../../reference-receiver/legacy-credential-probe.ts";
import { requestLogFields, requestTraceparent } from "../trace-requests.ts";
import { processPendingDeliveries } from "../../reference-receiver/process-deliveries.ts";
import { afterAnswer } from "./after-answer.ts";
import { recordDelivery } from "../../reference-receiver/record-delivery.ts";
import { authenticate } from "./authenticate.ts";
import type { ReceiverEnv } from "./receiver-env.ts";
import { parseDeliveryJson, readDeliveryBody, tooLargeRecord } from "./read-delivery-body.ts";

/** A declaration of version 1.x or 2.x: the receiver speaks the legacy contract at /about. */
export const isLegacyVersion = (version: string) => /^[12](\.|$)/.test(version);

export function mountLegacyRoutes(app: Hono<ReceiverEnv>, runtime: Runtime, verifyToken: WebhookTokenVerifier) {
  const verifyPsap = psapConnectorTokenVerifier(verifyToken);

  const requireLegacyRoute: MiddlewareHandler<ReceiverEnv> = async (c, next) => {
    if (!matchLegacyRoute(c.req.method, c.get("receiverPath")))
      return c.json(
        { error: "not_found", error_description: `No v1/v2 route ${c.req.method} ${c.get("receiverPath")}.` },
        404,
      );
    await next();
  };

  const authenticatePsapConnector: MiddlewareHandler<ReceiverEnv> = async (c, next) => {
    const scope = LEGACY_ROUTES[matchLegacyRoute(c.req.method, c.get("receiverPath"))!.key].scope;
    const refused = await authenticate((o) => verifyPsap({ ...o, scope }))(c, next);
    if (refused) return refused;
  };

  for (const path of ["/:key/v1/*", "/:key/v2/*"])
    app.on(["POST", "PUT", "PATCH"], path, requireLegacyRoute, authenticatePsapConnector, receiveLegacyDelivery);
}

/**
 * /about's token check. A receiver declaring 3.x is v3-only and refuses the
 * legacy credential (401, the engine retries with Publisher). A receiver
 * declaring 1.x/2.x accepts PsapConnector with psap.read (and Publisher too: it
 * serves v3 routes beside its legacy ones, ready for the cutover).
 */
export function authenticateAbout(runtime: Runtime, verifyToken: WebhookTokenVerifier) {
  const verifyPsap = psapConnectorTokenVerifier(verifyToken);
  const verifyPublisher = publisherTokenVerifier(verifyToken);
  // Refused either way; a valid PsapConnector token is discovery's spec-ordered first try, and is
  // recorded as such (checked only once Publisher has failed: a refused /about is rare).
  const publisherOnly = authenticate(async (o) => {
    const current = await verifyPublisher(o);
    if (current.ok) return current;
    const legacy = await verifyPsap({ ...o, scope: PSAP_READ_SCOPE });
    return legacy.ok ? { ok: false as const, reason: LEGACY_PROBE_DETAIL } : current;
  });
  const either = authenticate(async (o) => {
    const legacy = await verifyPsap({ ...o, scope: PSAP_READ_SCOPE });
    if (legacy.ok) return legacy;
    const current = await verifyPublisher(o);
    return current.ok ? current : legacy;
  });
  return async function authenticateAboutCaller(c: Context<ReceiverEnv>, next: Next) {
    const declaration = await readCapabilities({ db: runtime.db, key: c.get("receiverKey") });
    return (isLegacyVersion(declaration.version) ? either : publisherOnly)(c, next);
  };
}

async function receiveLegacyDelivery(c: Context<ReceiverEnv>) {
  const { db, clock, logger } = c.get("runtime");
  const match = matchLegacyRoute(c.req.method, c.get("receiverPath"))!;
  const read = await readDeliveryBody(c);
  let body: unknown;
  const anomalies: string[] = [];
  if ("tooLarge" in read) {
    const record = tooLargeRecord(read.tooLarge);
    body = record.body;
    anomalies.push(record.anomaly);
  } else {
    const parsed = parseDeliveryJson(read.text);
    body = parsed.body;
    if (parsed.anomaly) anomalies.push(parsed.anomaly);
  }
  const b = (body ?? {}) as {
    requestId?: unknown;
    requestTimeStampUtc?: unknown;
    incident?: { id?: unknown; isTest?: unknown };
  };
  // v1/v2: the delivery identifier and timestamp are body members (spec, "Events"); dedupe on requestId.
  const requestId = typeof b.requestId === "string" ? b.requestId : null;
  if (!requestId) anomalies.push("missing-key:requestId");
  const incidentId = match.incidentId ?? (typeof b.incident?.id === "string" ? b.incident.id : null);
  let recorded;
  try {
    recorded = await recordDelivery({
      db,
      clock,
      input: {
        integrationKey: c.get("receiverKey"),
        method: c.req.method,
        path: c.get("receiverPath"),
        route: `v${match.major} ${match.key}`,
        incidentId,
        serviceRequestId: requestId,
        requestTimestamp: typeof b.requestTimeStampUtc === "string" ? b.requestTimeStampUtc : null,
        body,
        status: c.get("successStatus"),
        outcome: "accepted",
        anomalies,
        isTest: b.incident?.isTest === true,
      },
    });
  } catch (err) {
    logger.error(
      { err, receiver: c.get("receiverKey"), ...requestLogFields(c) },
      "receiver could not record a delivery",
    );
    return c.json({ error: "not_recorded", error_description: "The delivery could not be recorded; retry." }, 503);
  }
  if (!recorded.duplicate) {
    const traceparent = requestTraceparent(c);
    const run = () =>
      processPendingDeliveries({ db, clock, integrationKey: c.get("receiverKey"), incidentId, traceparent }).catch(
        (err: Error) =>
          logger.error(
            { err, receiver: c.get("receiverKey"), ...requestLogFields(c) },
            "receiver could not process a delivery",
          ),
      );
    afterAnswer(c.env?.outgoing, () => void run());
  }
  return c.json({ received: true, duplicate: recorded.duplicate }, c.get("successStatus"));
}
