// The simulated faults of an embedded receiver, applied before anything else
// (a broken host breaks every route). See server/reference-receiver/faults.ts for the modes, and
// server/directory/integration-faults.ts for when one is active.
import { setTimeout as delay } from "node:timers/promises";
import type { Context, Next } from "hono";
import { parseDeliveryJson } from "./read-delivery-body.ts";
import type { ReceiverEnv } from "./receiver-env.ts";
import { describeFault } from "../../directory/integration-faults.ts";
import { parseReceiverFaultMode } from "../../reference-receiver/faults.ts";
import { recordDelivery } from "../../reference-receiver/record-delivery.ts";
import { incidentIdOf, matchEventRoute } from "../../reference-receiver/event-routes.ts";

/** A hung request is released after this long even if the caller never gives up (real time, a safety net). */
const TIMEOUT_HOLD_MAX_MS = 10 * 60_000;

export async function applyFault(c: Context<ReceiverEnv>, next: Next) {
  const state = describeFault(c.get("storedFault"), c.get("runtime").clock.nowMs());
  const fault =
    state.state === "active"
      ? (parseReceiverFaultMode(state.mode) ?? { kind: "ok" as const })
      : { kind: "ok" as const };
  const socket = c.env?.incoming?.socket ?? c.env?.connection;
  switch (fault.kind) {
    case "ok":
      return next();
    case "down":
      // As if the host were unreachable: nothing is recorded, the connection ends without a response.
      socket?.destroy();
      return new Response(null, { status: 599 });
    case "timeout":
      await recordFault(c, 0, "timeout: held without answering");
      // Hold until the caller gives up (its socket closes), then drop the connection.
      await new Promise<void>((resolve) => {
        if (!socket || socket.destroyed) return resolve();
        const t = setTimeout(resolve, TIMEOUT_HOLD_MAX_MS);
        t.unref();
        socket.once("close", () => {
          clearTimeout(t);
          resolve();
        });
      });
      socket?.destroy();
      return new Response(null, { status: 599 });
    case "slow":
      await delay(fault.ms);
      return next();
    case "flaky":
      if (Math.random() * 100 >= fault.percent) return next();
      return answerFault(c, 503, `flaky:${fault.percent}`);
    case "http-500":
      return answerFault(c, 500, "http-500");
    case "http-503":
      return answerFault(c, 503, "http-503");
    case "http-201":
      c.set("successStatus", 201);
      return next();
    case "reject-token":
      c.set("rejectToken", true);
      return next();
  }
}

async function answerFault(c: Context<ReceiverEnv>, status: 500 | 503, mode: string) {
  await recordFault(c, status, mode);
  return c.json({ error: "simulated_fault", error_description: `The receiver is set to fail (${mode}).` }, status);
}

/**
 * Fault answers are recorded (not deduplicated, never applied) so the dashboard shows what the sender saw,
 * under the incident they were about: from the path, or for a create from its body (the body is not kept).
 */
async function recordFault(c: Context<ReceiverEnv>, status: number, detail: string) {
  const { db, clock } = c.get("runtime");
  const match = matchEventRoute(c.req.method, c.get("receiverPath"));
  const body = match && !match.params.incidentId ? parseDeliveryJson(await c.req.text()).body : null;
  await recordDelivery({
    db,
    clock,
    input: {
      integrationKey: c.get("receiverKey"),
      method: c.req.method,
      path: c.get("receiverPath"),
      route: null,
      incidentId: match ? incidentIdOf(match, body) : null,
      serviceRequestId: c.req.header("service-request-id") ?? null,
      requestTimestamp: c.req.header("service-request-timestamp") ?? null,
      body: null,
      status,
      outcome: "fault",
      detail,
    },
  });
}
