// A shared-mode workbench for listener tests over real HTTP: the webhook harness (planner, a
// delivery worker) behind the real server with its /api/listen upgrade, on 127.0.0.1. Its outbound
// policy refuses loopback, so a receiver on 127.0.0.1 is reached only through a listener. A
// listener's change of where /about is answered is rediscovered, as the engine's discovery worker
// does it (without that worker's periodic passes over every integration).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createWorkbenchServer } from "../../../http/create-server.ts";
import { createListenUpgrade } from "../../../http/listen/listen-upgrade.ts";
import { createProtocolApp } from "../../../http/protocol-app.ts";
import { workbenchApiApp } from "../../../http/workbench-api.ts";
import { startDeliveryWorker } from "../../delivery/delivery-worker.ts";
import { cutOverLane } from "../../planning/supersede-queued-events.ts";
import { startWebhookHarness } from "../../testing/webhook-harness.ts";
import { sayIfSlow } from "../../../testing/say-if-slow.ts";
import { listenerRegistry } from "../listener-registry.ts";
import { closeListeners } from "../listener-session.ts";
import { discoverIntegration } from "../../discovery/discover-integration.ts";
import { webhookEvents, type WebhookEvents } from "../../webhook-events.ts";

export async function startListenWorkbench() {
  const h = await startWebhookHarness({
    env: {
      WORKBENCH_ACCESS: "shared",
      WORKBENCH_ADMIN_PASSWORD: "admin-password-for-tests",
      ALLOWED_HOSTS: "127.0.0.1",
    },
  });
  const { runtime } = h;
  listenerRegistry().deps = { db: runtime.db, clock: runtime.clock };
  const worker = await startDeliveryWorker(runtime, { cutOverLane, timeoutMs: 3_000 });
  const rediscover = ({ integrationKey }: WebhookEvents["integration:about-changed"][0]) =>
    void discoverIntegration(runtime, integrationKey).catch(() => {});
  webhookEvents().on("integration:about-changed", rediscover);
  const server: http.Server = createWorkbenchServer({
    env: runtime.env,
    protocolApp: createProtocolApp(runtime),
    workbenchApiApp: workbenchApiApp(runtime),
    listenUpgrade: createListenUpgrade(runtime),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    ...h,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await sayIfSlow("closeListeners", closeListeners(runtime));
      webhookEvents().off("integration:about-changed", rediscover);
      await sayIfSlow("the delivery worker to stop", worker.stop());
      server.closeAllConnections(); // not the upgraded (listener) sockets: server.close waits for those
      await sayIfSlow("the server to close", new Promise<void>((resolve) => server.close(() => resolve())));
      listenerRegistry().deps = null;
      await h.close();
    },
  };
}
export type ListenWorkbench = Awaited<ReturnType<typeof startListenWorkbench>>;
