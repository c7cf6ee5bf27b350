// Keeps every integration's capabilities fresh: all at start-up, then each one
// when its nextCheckAt (workbench clock) comes due, checked every few seconds
// and at once on a clock jump; soon after a failed delivery (rediscover-after-failure.ts).
// On demand: `workbench integrations rediscover KEY`.
import type { Runtime } from "../../runtime.ts";
import type { Worker } from "../../platform/worker.ts";
import { discoverIntegration } from "./discover-integration.ts";
import { planHeldChanges } from "../planning/plan-held-changes.ts";
import { inProcessHandler } from "../../platform/network/in-process-origins.ts";
import { isEmbeddedReceiver } from "../sending/receiver-url.ts";
import { webhookEvents, type WebhookEvents } from "../webhook-events.ts";
import { isFailedAttempt, RediscoveryLimiter } from "./rediscover-after-failure.ts";
import { createOutageLog, warnUnlessOutage } from "../../platform/db/outage-log.ts";

const CHECK_EVERY_MS = 5_000;

export type DiscoveryWorker = Worker & {
  /** No pass or discovery runs: what a test waits for before it counts the discoveries that follow. */
  settled: () => boolean;
};

export async function startDiscoveryWorker(runtime: Runtime): Promise<DiscoveryWorker> {
  let running = false;
  const inFlight = new Set<Promise<unknown>>();
  // The embedded receivers live on this process's own origin, which answers once the HTTP server
  // listens (`listening`) or, in a test server, in-process. Until then their /about would be read in
  // vain (and logged as unreachable at every start): they are left for the pass at `listening`.
  let listened = false;
  const ownOrigin = new URL(runtime.env.PUBLIC_URL).origin;
  // Aborted when the process begins to stop: an /about in flight then may be answered by a
  // receiver that can no longer read the keys over HTTP, and that answer says nothing of it.
  const closing = new AbortController();
  const outage = createOutageLog(runtime.logger, "discovery");
  // A receiver's failure is a warning each time; the database gone is the outage's (outage-log.ts).
  const failed = (err: Error, integration: string, message: string) =>
    warnUnlessOutage(runtime.logger, err, message, { integration });
  const discover = (key: string, failure: string) =>
    discoverIntegration(runtime, key, { signal: closing.signal }).catch((err: Error) => {
      if (!closing.signal.aborted) failed(err, key, failure);
    });
  const ownOriginAnswers = () => listened || inProcessHandler(ownOrigin) !== undefined;
  const tick = async (all: boolean) => {
    if (running || closing.signal.aborted) return;
    running = true;
    try {
      const now = runtime.clock.now();
      const reachable = ownOriginAnswers();
      const integrations = (await runtime.db.integration.findMany({ select: { key: true, receiverUrl: true } })).filter(
        (i) => reachable || !isEmbeddedReceiver(i.receiverUrl),
      );
      const caps = await runtime.db.webhookCapabilities.findMany({
        select: { integrationKey: true, nextCheckAt: true },
      });
      const due = integrations.filter(
        (i) => all || !caps.some((c) => c.integrationKey === i.key && c.nextCheckAt > now),
      );
      await Promise.all(due.map((i) => discover(i.key, "discovery failed")));
      outage.succeeded();
      if (closing.signal.aborted) return;
      // Held lanes of accepted integrations that a discovery's own pass did not reach (a change that
      // committed while that pass ran, or a pass that failed): planned here, a few seconds later.
      const notDue = integrations.filter((i) => !due.includes(i));
      for (const i of notDue)
        await planHeldChanges(runtime, i.key).catch((err: Error) => failed(err, i.key, "planning held changes failed"));
    } catch (err) {
      if (!closing.signal.aborted) outage.failed(err, "discovery pass failed");
    } finally {
      running = false;
    }
  };
  const run = (all: boolean) => {
    const p = tick(all);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  // Not awaited: a slow receiver must not hold up the server's start.
  run(true);
  // A second pass once the server listens: the embedded receivers' first, and the others again.
  const listening = () => {
    listened = true;
    const p = Promise.all(inFlight).then(() => tick(true));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const timer = setInterval(() => run(false), CHECK_EVERY_MS);
  timer.unref();
  const onClock = () => run(false);
  runtime.clock.on("changed", onClock);
  // What an integration's /about answers changed (an embedded receiver's capability toggles, a
  // listener attached or gone): rediscover it now, so the next planned event already follows it. A
  // capability control awaits it (waitFor), so its caller's next change is planned under the new flags.
  const onAboutChanged = ({ integrationKey, waitFor }: WebhookEvents["integration:about-changed"][0]) => {
    const p = discover(integrationKey, "rediscovery failed");
    waitFor?.(p);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  webhookEvents().on("integration:about-changed", onAboutChanged);
  // A failed delivery to a partner's receiver: it may have changed its declaration (a cutover);
  // look again soon. The embedded receivers announce their changes (above), so they are not asked.
  const limiter = new RediscoveryLimiter();
  const rediscoverExternal = async (key: string) => {
    const integration = await runtime.db.integration.findUnique({ where: { key }, select: { receiverUrl: true } });
    if (integration && !isEmbeddedReceiver(integration.receiverUrl))
      await discover(key, "rediscovery after a failed delivery failed");
  };
  const onAttempt = (attempt: WebhookEvents["delivery:attempted"][0]) => {
    if (!isFailedAttempt(attempt) || closing.signal.aborted) return;
    if (!limiter.take(attempt.integrationKey, runtime.clock.nowMs())) return;
    const p = rediscoverExternal(attempt.integrationKey).catch((err: Error) =>
      failed(err, attempt.integrationKey, "rediscovery after a failed delivery failed"),
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  webhookEvents().on("delivery:attempted", onAttempt);
  return {
    name: "webhook-discovery",
    listening,
    settled: () => !running && inFlight.size === 0,
    closing: () => closing.abort(),
    async stop() {
      closing.abort();
      clearInterval(timer);
      runtime.clock.off("changed", onClock);
      webhookEvents().off("integration:about-changed", onAboutChanged);
      webhookEvents().off("delivery:attempted", onAttempt);
      await Promise.all(inFlight);
    },
  };
}
