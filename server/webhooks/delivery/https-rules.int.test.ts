// Delivery requires HTTPS with a valid certificate unless the integration is
// marked insecure-dev (workbench-decisions.md, Origins; spec: "The service
// delivers webhooks only to HTTPS endpoints with a valid server certificate").
import { afterEach, describe, expect, it } from "vitest";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { createSelfSignedCert } from "../testing/self-signed-cert.ts";
import { startWebhookHarness, waitForEvents, type WebhookHarness } from "../testing/webhook-harness.ts";
import { startDeliveryWorker } from "./delivery-worker.ts";
import { cutOverLane } from "../planning/supersede-queued-events.ts";

const ID = "5d1f0000-0000-4000-8000-0000000000aa";
let h: WebhookHarness | undefined;
let worker: Awaited<ReturnType<typeof startDeliveryWorker>> | undefined;
afterEach(async () => {
  await worker?.stop();
  await h?.close();
});

async function firstAttempt(harness: WebhookHarness) {
  // The deadline only has to outlast a TLS handshake on a busy machine: what is checked is the
  // certificate rule, not the deadline (at 2 s, a CI run sharing its cores timed both TLS cases out).
  worker = await startDeliveryWorker(harness.runtime, { cutOverLane, timeoutMs: 8_000 });
  const attempted = waitForEvents("delivery:attempted", 1);
  await harness.commit(
    buildChange({ kind: "incident.created" }, buildSnapshot({ id: ID }), { producedAt: harness.clock.now() }),
  );
  return (await attempted)[0]![0];
}

describe("HTTPS rules", () => {
  it("refuses a plain-http target that is not insecure-dev without sending anything", async () => {
    h = await startWebhookHarness();
    await h.pointIntegration("north-psap", ["incident.created"], { insecureDev: false });
    const attempt = await firstAttempt(h);
    expect(attempt.status).toBeNull();
    expect(attempt.error).toMatch(
      /^refused: http:\/\/127\.0\.0\.1:\d+ is plain http; HTTPS with a valid certificate is required/,
    );
    expect(h.receiver.received).toHaveLength(0);
    const row = await h.database.db.webhookDelivery.findFirstOrThrow();
    expect(row.state).toBe("pending"); // retried per backoff: the integrator can still fix the URL
  });

  it("refuses an HTTPS receiver with an invalid (self-signed) certificate", async () => {
    h = await startWebhookHarness({ tls: createSelfSignedCert() });
    await h.pointIntegration("north-psap", ["incident.created"], { insecureDev: false });
    const attempt = await firstAttempt(h);
    expect(attempt.status).toBeNull();
    expect(attempt.error).toMatch(/SELF_SIGNED|self[- ]signed/i);
    expect(h.receiver.received).toHaveLength(0);
  });

  it("delivers to the same self-signed receiver when the integration is insecure-dev", async () => {
    h = await startWebhookHarness({ tls: createSelfSignedCert() });
    await h.pointIntegration("north-psap", ["incident.created"], { insecureDev: true });
    const attempt = await firstAttempt(h);
    expect([attempt.status, attempt.error]).toEqual([200, null]);
    expect(h.receiver.received.map((r) => r.path)).toEqual(["/v3/incidents"]);
  });
});
