// One v3 event delivery (spec, "Delivery rules" 1, 4 and 6): read (bounded), record
// durably (deduplicated on Service-Request-Id), answer, then process.
import type { Context } from "hono";
import { incidentIdOf, matchEventRoute, type MatchedRoute } from "../../reference-receiver/event-routes.ts";
import { processPendingDeliveries } from "../../reference-receiver/process-deliveries.ts";
import { afterAnswer } from "./after-answer.ts";
import { parseDeliveryJson, readDeliveryBody, tooLargeRecord } from "./read-delivery-body.ts";
import { recordDelivery } from "../../reference-receiver/record-delivery.ts";
import type { ReceiverEnv } from "./receiver-env.ts";
import { requestLogFields, requestTraceparent } from "../trace-requests.ts";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "../../platform/db/database-unavailable.ts";

export async function receiveDelivery(c: Context<ReceiverEnv>) {
  const match = matchEventRoute(c.req.method, c.get("receiverPath"))!;
  const { body, anomalies } = await readBody(c);
  const recorded = await recordOrFail(c, match, body, anomalies);
  if (!recorded) {
    c.header("retry-after", String(DATABASE_RETRY_AFTER_S));
    return c.json({ error: "not_recorded", error_description: "The delivery could not be recorded; retry." }, 503);
  }
  if (!recorded.duplicate) processAfterAnswering(c, incidentIdOf(match, body));
  // Only 200 accepts a delivery; an unprocessable one is still answered 200 (rule 4).
  return c.json({ received: true, duplicate: recorded.duplicate }, c.get("successStatus"));
}

/**
 * The body as JSON; anything else is kept as text and flagged, and a body past the storage bound
 * is recorded by its size (read-delivery-body.ts). All are recorded and answered 200.
 */
async function readBody(c: Context<ReceiverEnv>): Promise<{ body: unknown; anomalies: string[] }> {
  const read = await readDeliveryBody(c);
  const anomalies: string[] = [];
  if (!c.req.header("service-request-id")) anomalies.push("missing-header:Service-Request-Id");
  if (!c.req.header("service-request-timestamp")) anomalies.push("missing-header:Service-Request-Timestamp");
  if ("tooLarge" in read) {
    const { body, anomaly } = tooLargeRecord(read.tooLarge);
    return { body, anomalies: [...anomalies, anomaly] };
  }
  const parsed = parseDeliveryJson(read.text);
  return { body: parsed.body, anomalies: parsed.anomaly ? [...anomalies, parsed.anomaly] : anomalies };
}

async function recordOrFail(c: Context<ReceiverEnv>, match: MatchedRoute, body: unknown, anomalies: string[]) {
  const { db, clock, logger } = c.get("runtime");
  try {
    return await recordDelivery({
      db,
      clock,
      input: {
        integrationKey: c.get("receiverKey"),
        method: c.req.method,
        path: c.get("receiverPath"),
        route: match.route.flagPath,
        incidentId: incidentIdOf(match, body),
        serviceRequestId: c.req.header("service-request-id") ?? null,
        requestTimestamp: c.req.header("service-request-timestamp") ?? null,
        body,
        status: c.get("successStatus"),
        outcome: "accepted",
        anomalies,
        isTest: (body as { incident?: { purpose?: unknown } } | null)?.incident?.purpose === "Test",
      },
    });
  } catch (err) {
    // Not durably recorded: a retry can fix that, so this is the one failure answered non-200 (rule 4).
    // An outage is logged once by the database watch, not once per refused delivery.
    if (!isDatabaseUnavailable(err))
      logger.error(
        { err, receiver: c.get("receiverKey"), ...requestLogFields(c) },
        "receiver could not record a delivery",
      );
    return null;
  }
}

/**
 * Applies the delivery to the replica once the response has gone out ("answer 200 … and process
 * afterwards"). With tracing on, the request's span goes along: the processing batch's span links it
 * (trace-processing.ts), and a failure's log line carries its ids.
 */
function processAfterAnswering(c: Context<ReceiverEnv>, incidentId: string | null) {
  const { db, clock, logger } = c.get("runtime");
  const traceparent = requestTraceparent(c);
  const process = () =>
    processPendingDeliveries({ db, clock, integrationKey: c.get("receiverKey"), incidentId, traceparent });
  // Recorded, so never lost: a database outage delays processing, tried again 250 ms apart doubling
  // to 5 s for about two minutes (docs/database-outages.md); later, the incident's next delivery does it.
  const run = (attempt = 0) => {
    process().catch((err: Error) => {
      if (isDatabaseUnavailable(err) && attempt < 30) {
        setTimeout(() => run(attempt + 1), Math.min(5_000, 250 * 2 ** attempt)).unref();
        return;
      }
      logger.error(
        { err, receiver: c.get("receiverKey"), ...requestLogFields(c) },
        "receiver could not process a delivery",
      );
    });
  };
  afterAnswer(c.env?.outgoing, () => run());
}
