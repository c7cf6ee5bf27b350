// A receiver's answer is kept as the inspector shows it (SECURITY.md, "Bad bytes and deep JSON"):
// one that answers with NUL bytes in its body is recorded all the same, each byte PostgreSQL
// refuses kept as U+FFFD, and its delivery is delivered,
// instead of failing the statement that records it and leaving the lane behind.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { startWebhookHarness, waitForEvents, type WebhookHarness } from "../testing/webhook-harness.ts";
import { startDeliveryWorker } from "./delivery-worker.ts";
import { cutOverLane } from "../planning/supersede-queued-events.ts";

const ID = "5d1f0000-0000-4000-8000-0000000000e1";
let h: WebhookHarness | undefined;
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await h?.close();
  h = undefined;
});

it("a 200 whose body holds a NUL byte is recorded, and the event is delivered", async () => {
  h = await startWebhookHarness();
  const body = Buffer.concat([Buffer.from('{"ok":"a'), Buffer.from([0]), Buffer.from('b"}')]);
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await h.pointIntegration("north-psap", ["incident.created"], { url, insecureDev: true });
  const delivered = waitForEvents("delivery:delivered", 1, (e) => e.incidentId === ID, 20_000);
  const worker = await startDeliveryWorker(h.runtime, { cutOverLane, workerId: "w1" });
  cleanups.push(() => worker.stop());
  await h.commit(buildChange({ kind: "incident.created" }, buildSnapshot({ id: ID }), { producedAt: h.clock.now() }));
  await delivered;
  const attempt = await h.runtime.db.webhookAttempt.findFirstOrThrow({
    where: { delivery: { incidentId: ID } },
    orderBy: { attempt: "desc" },
  });
  expect(attempt.status).toBe(200);
  expect(attempt.bodyExcerpt).toBe('{"ok":"a\ufffdb"}');
});
