// The discovery worker and the process's own origin: the embedded receivers are read once that
// origin answers (the server listens, or a test server serves it in-process), not before; and the
// rediscovery a failed delivery asks for.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import type { Runtime } from "../../runtime.ts";
import { startDiscoveryWorker } from "./discovery-worker.ts";
import { webhookEvents } from "../webhook-events.ts";
import { http as mock, HttpResponse } from "msw";
import { setupServer } from "msw/node";

const PARTNER = "https://receiver.partner.test/hooks";

const EMBEDDED = ["central-ems", "fire-rescue", "north-psap"];

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const capabilities = async () =>
  (await s.runtime.db.webhookCapabilities.findMany({ where: { integrationKey: { in: EMBEDDED } } }))
    .map((c) => `${c.integrationKey} ${c.status}`)
    .sort();

it("leaves the embedded receivers for the pass at `listening` while its own origin does not answer", async () => {
  // A process whose origin nothing serves yet, as server/main.ts before its server listens.
  const runtime: Runtime = { ...s.runtime, env: { ...s.runtime.env, PUBLIC_URL: "http://127.0.0.1:9" } };
  await s.runtime.db.webhookCapabilities.deleteMany({ where: { integrationKey: { in: EMBEDDED } } });
  const worker = await startDiscoveryWorker(runtime);
  try {
    await new Promise((r) => setTimeout(r, 500));
    expect(await capabilities()).toEqual([]);
    expect(s.logs.text).not.toContain("not accepted at /about");
    // Listening: read now (here nothing answers on that origin, so they are found unreachable).
    worker.listening?.();
    await expect.poll(capabilities, { timeout: 10_000 }).toEqual(EMBEDDED.map((k) => `${k} unreachable`));
  } finally {
    await worker.stop();
  }
});

it("reads them on its first pass when its own origin is served in-process", async () => {
  await s.runtime.db.webhookCapabilities.deleteMany({ where: { integrationKey: { in: EMBEDDED } } });
  const worker = await startDiscoveryWorker(s.runtime);
  try {
    await expect.poll(capabilities, { timeout: 10_000 }).toEqual(EMBEDDED.map((k) => `${k} active`));
  } finally {
    await worker.stop();
  }
});

it("neither saves nor logs an /about answered after the process began to stop", async () => {
  // Receivers that answer 503 a moment after the request, as the embedded ones did at a stop right
  // after start (their key fetch over the closing server failed: 401, logged as "not accepted").
  const asked: Array<() => void> = [];
  const slow = http.createServer((_req, res) => void asked.push(() => res.writeHead(503).end()));
  await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
  const runtime: Runtime = { ...s.runtime, env: { ...s.runtime.env, PUBLIC_URL: origin } };
  await s.runtime.db.webhookCapabilities.deleteMany({ where: { integrationKey: { in: EMBEDDED } } });
  const logged = s.logs.text.length;
  const worker = await startDiscoveryWorker(runtime);
  try {
    worker.listening?.();
    await expect.poll(() => asked.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(EMBEDDED.length);
    worker.closing?.();
    for (const answer of asked.splice(0)) answer();
    await worker.stop();
    expect(await capabilities()).toEqual([]);
    expect(s.logs.text.slice(logged)).not.toContain("not accepted at /about");
    expect(s.logs.text.slice(logged)).not.toContain("discovery failed");
  } finally {
    await worker.stop();
    slow.closeAllConnections();
    slow.close();
  }
});

it("stops at once while an /about hangs, rather than waiting out its 10 s deadline", async () => {
  let asked = 0;
  const silent = http.createServer(() => void asked++); // never answers
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  const runtime: Runtime = { ...s.runtime, env: { ...s.runtime.env, PUBLIC_URL: origin } };
  await s.runtime.db.webhookCapabilities.deleteMany({ where: { integrationKey: { in: EMBEDDED } } });
  const worker = await startDiscoveryWorker(runtime);
  try {
    worker.listening?.();
    await expect.poll(() => asked, { timeout: 10_000 }).toBeGreaterThanOrEqual(EMBEDDED.length);
    const stopping = performance.now();
    worker.closing?.();
    await worker.stop();
    expect(performance.now() - stopping).toBeLessThan(1_000);
    expect(await capabilities()).toEqual([]);
  } finally {
    await worker.stop();
    silent.closeAllConnections();
    silent.close();
  }
});

it("rediscovers a partner's receiver soon after a failed delivery, at most once per 30 s", async () => {
  // central-ems pointed at a partner's receiver (msw below); the embedded ones announce their own changes.
  const msw = setupServer(
    mock.get(`${PARTNER}/about`, () =>
      HttpResponse.json({ version: "3.0", supports: { incident: { created: true } } }),
    ),
  );
  msw.listen({ onUnhandledRequest: "bypass" });
  await s.runtime.db.integration.update({
    where: { key: "central-ems" },
    data: { receiverUrl: PARTNER, insecureDev: false },
  });
  const worker = await startDiscoveryWorker(s.runtime);
  const seen: string[] = [];
  const onDiscovered = (e: { integrationKey: string }) => void seen.push(e.integrationKey);
  try {
    await expect
      .poll(
        async () =>
          (await s.runtime.db.webhookCapabilities.findUnique({ where: { integrationKey: "central-ems" } }))?.flags,
        { timeout: 10_000 },
      )
      .toEqual(["incident.created"]);
    // The flags may be an earlier pass's: the start-up pass may still be discovering (and announcing) it.
    await expect.poll(() => worker.settled(), { timeout: 10_000 }).toBe(true);
    webhookEvents().on("integration:discovered", onDiscovered);
    const attempt = (integrationKey: string, status: number | null) =>
      webhookEvents().emit("delivery:attempted", {
        deliveryId: "1",
        requestId: "00000000-0000-4000-8000-000000000001",
        integrationKey,
        incidentId: "00000000-0000-4000-8000-000000000002",
        method: "PATCH",
        path: "/v3/incidents/x/summary",
        workerId: "test",
        attempt: 1,
        status,
        error: status === null ? "connect ECONNREFUSED" : null,
        durationMs: 3,
        retryAt: status === 200 ? null : new Date(s.runtime.clock.nowMs() + 1_000),
      });
    attempt("central-ems", 200);
    attempt("north-psap", 503); // embedded: not asked
    await new Promise((r) => setTimeout(r, 500));
    expect(seen).toEqual([]);
    attempt("central-ems", 404);
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual(["central-ems"]);
    attempt("central-ems", null);
    attempt("central-ems", 503);
    await new Promise((r) => setTimeout(r, 500));
    expect(seen).toEqual(["central-ems"]); // within 30 s: not again
  } finally {
    webhookEvents().off("integration:discovered", onDiscovered);
    await worker.stop();
    msw.close();
    await s.runtime.db.integration.update({
      where: { key: "central-ems" },
      data: { receiverUrl: "/receivers/central-ems", insecureDev: true },
    });
  }
});
