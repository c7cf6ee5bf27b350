// Scenario steps that wait on the webhook engine: they listen to its typed
// lifecycle events (webhook-events.ts) and re-check the outbox on each, so they
// return as soon as the state holds, never after a fixed sleep.
import type { Db } from "../incidents/db-handle.ts";
import { AppError } from "../platform/errors.ts";
import { webhookEvents, type WebhookEvents } from "../webhooks/webhook-events.ts";

type Wait = { db: Db; incidentId: string; integrationKey: string; timeoutMs?: number };

/** Every planned delivery of the lane has settled (delivered or expired), at least one exists. */
export function waitForLaneSettled(options: Wait) {
  return waitUntil(options, ["delivery:delivered", "delivery:expired", "delivery:attempted"], async () => {
    const lane = { incidentId: options.incidentId, integrationKey: options.integrationKey };
    const [all, open] = await Promise.all([
      options.db.webhookDelivery.count({ where: lane }),
      options.db.webhookDelivery.count({ where: { ...lane, state: { in: ["pending", "delivering"] } } }),
    ]);
    return all > 0 && open === 0 ? `${all} ${all === 1 ? "delivery" : "deliveries"} settled` : undefined;
  });
}

/** At least one attempt of the lane failed (the receiver is down, the engine retries). */
export function waitForFailedAttempt(options: Wait) {
  let failed: string | undefined;
  const onAttempt = (e: WebhookEvents["delivery:attempted"][0]) => {
    if (e.incidentId === options.incidentId && e.integrationKey === options.integrationKey && e.status !== 200)
      failed = `attempt ${e.attempt} of ${e.method} ${e.path} failed (${e.status ?? e.error})`;
  };
  webhookEvents().on("delivery:attempted", onAttempt);
  return waitUntil(options, ["delivery:attempted"], async () => failed).finally(() =>
    webhookEvents().off("delivery:attempted", onAttempt),
  );
}

async function waitUntil(
  options: Wait,
  events: Array<keyof WebhookEvents>,
  check: () => Promise<string | undefined>,
): Promise<string> {
  const emitter = webhookEvents();
  return new Promise<string>((resolve, reject) => {
    let busy = false;
    let again = false;
    const probe = async () => {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        const done = await check();
        if (done) {
          finish();
          resolve(done);
          return;
        }
      } catch (error) {
        finish();
        reject(error);
        return;
      }
      busy = false;
      if (again) {
        again = false;
        void probe();
      }
    };
    const timer = setTimeout(() => {
      finish();
      reject(
        new AppError(
          "ScenarioTimeout",
          `The ${options.integrationKey} deliveries of incident ${options.incidentId} did not get there within ${(options.timeoutMs ?? 30_000) / 1000} s.`,
        ),
      );
    }, options.timeoutMs ?? 30_000);
    const finish = () => {
      clearTimeout(timer);
      for (const e of events) emitter.off(e, listener);
    };
    const listener = (e: { incidentId: string }) => {
      if (e.incidentId === options.incidentId) void probe();
    };
    for (const e of events) emitter.on(e, listener);
    void probe();
  });
}
