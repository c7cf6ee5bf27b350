// Simulated faults of an embedded receiver, over HTTP, with their duration and
// scheduled windows judged on the workbench clock.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { advanceClock } from "../../workbench/clock-control.ts";
import { setReceiverFault } from "../../reference-receiver/integration-faults.ts";
import { readFault } from "../../directory/integration-faults.ts";
import { dispatcherFaultAt } from "../../webhooks/delivery/dispatcher-fault.ts";
import { setDispatcherNetworkFault } from "../../webhooks/admin/set-dispatcher-fault.ts";
import { createDeliveryTargetLoader } from "../../webhooks/delivery/load-delivery-target.ts";
import { makeSnapshot, NORTH_PSAP } from "../../reference-receiver/testing/snapshot-fixture.ts";
import { nextProcessed, receiverClient } from "../../reference-receiver/testing/deliver.ts";
import { whenReceiverProcessingIdle } from "../../reference-receiver/process-deliveries.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";

let s: TestServer;
let north: ReturnType<typeof receiverClient>;
beforeAll(async () => {
  s = await startTestServer();
  north = receiverClient(s, "north-psap", NORTH_PSAP);
});
afterEach(async () => {
  await fault("ok");
});
afterAll(async () => {
  await whenReceiverProcessingIdle();
  await s.close();
});

const fault = (mode: string, more: { for?: string; at?: string } = {}) =>
  setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", mode, ...more });
const create = (options: Parameters<typeof north.send>[3] = {}) =>
  north.send("POST", "/v3/incidents", { incident: makeSnapshot() }, options);
const lastRecord = async () =>
  (
    await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: "north-psap" },
      orderBy: { id: "desc" },
      take: 1,
    })
  )[0];

describe("receiver faults", () => {
  it("http-500 and http-503 answer that status on every route, recorded as faults and not deduplicated", async () => {
    await fault("http-500");
    const res = await create({ requestId: "retry-me" });
    expect(res.status).toBe(500);
    expect(await lastRecord()).toMatchObject({ outcome: "fault", status: 500, detail: "http-500", dedupeKey: null });
    expect((await fetch(`${north.url}/health`)).status).toBe(500);
    await fault("http-503");
    expect((await create()).status).toBe(503);
    await fault("ok");
    // The retry of the failed delivery is accepted: a fault answer never counts as received.
    expect((await create({ requestId: "retry-me" })).status).toBe(200);
  });

  it("http-201 records and applies the delivery but answers 201, so the sender retries; the retry is a duplicate", async () => {
    await fault("http-201");
    const snapshot = makeSnapshot();
    const processed = nextProcessed((e) => e.incidentId === snapshot.id);
    const first = await north.send("POST", "/v3/incidents", { incident: snapshot }, { requestId: "twice" });
    expect(first.status).toBe(201);
    await processed;
    await fault("ok");
    const retry = await north.send("POST", "/v3/incidents", { incident: snapshot }, { requestId: "twice" });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ received: true, duplicate: true });
  });

  it("reject-token answers 401 to a genuine token, recorded as a refused token", async () => {
    await fault("reject-token");
    expect((await create()).status).toBe(401);
    expect(await lastRecord()).toMatchObject({
      outcome: "rejected-token",
      status: 401,
      detail: expect.stringContaining("reject-token"),
    });
  });

  it("timeout holds the request until the caller gives up", async () => {
    await fault("timeout");
    const started = performance.now();
    await expect(create({ signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(await lastRecord()).toMatchObject({
      outcome: "fault",
      status: 0,
      detail: expect.stringContaining("timeout"),
    });
  });

  it("slow:<ms> answers 200 after the delay", async () => {
    await fault("slow:250");
    const started = performance.now();
    expect((await create()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it("flaky:<percent> fails that share of requests with 503", async () => {
    await fault("flaky:100");
    expect((await create()).status).toBe(503);
    await fault("flaky:0");
    expect((await create()).status).toBe(200);
    await fault("flaky:50");
    const statuses = await Promise.all(Array.from({ length: 40 }, () => create().then((r) => r.status)));
    expect(statuses.filter((x) => x === 503).length).toBeGreaterThan(5);
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThan(5);
  });

  it("down destroys the connection without any response, and records nothing", async () => {
    await fault("down");
    const before = await s.runtime.db.receiverRecord.count();
    await expect(create()).rejects.toThrow(/fetch failed/);
    await expect(fetch(`${north.url}/health`)).rejects.toThrow();
    expect(await s.runtime.db.receiverRecord.count()).toBe(before);
  });

  it("a fault --for a duration ends after it on the workbench clock, showing the remaining time until then", async () => {
    expect(await fault("http-503", { for: "10m" })).toMatchObject({ state: "active", remainingMs: 600_000 });
    expect((await create()).status).toBe(503);
    await advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: 5 * 60_000 });
    const halfway = await readFault({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", side: "receiver" });
    expect(halfway.remainingMs).toBeGreaterThan(290_000);
    expect(halfway.remainingMs).toBeLessThanOrEqual(300_000);
    expect((await create()).status).toBe(503);
    await advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: 5 * 60_000 + 1_000 });
    expect((await create()).status).toBe(200);
    expect(
      (await readFault({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", side: "receiver" })).state,
    ).toBe("none");
  });

  it("an outage window scheduled ahead starts and ends on the workbench clock", async () => {
    expect(await fault("http-500", { at: "+2m", for: "3m" })).toMatchObject({
      state: "scheduled",
      remainingMs: 120_000,
    });
    expect((await create()).status).toBe(200);
    await advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: 2 * 60_000 });
    expect((await create()).status).toBe(500);
    await advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: 3 * 60_000 });
    expect((await create()).status).toBe(200);
  });

  it("refuses unknown modes and durations", async () => {
    await expect(fault("http-404")).rejects.toMatchObject({ code: "ValidationFailed" });
    await expect(fault("down", { for: "soon" })).rejects.toMatchObject({ code: "ValidationFailed" });
    await expect(
      setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "nobody", mode: "down" }),
    ).rejects.toMatchObject({ code: "ReceiverNotFound" });
  });
});

describe("dispatcher-side network faults", () => {
  it("are stored per integration for the engine to read, with their window", async () => {
    const opts = { db: s.runtime.db, clock: s.runtime.clock };
    // As the delivery worker reads it: with the integration's delivery target, judged on the workbench clock.
    const targets = createDeliveryTargetLoader(s.runtime.db);
    const faultNow = async () =>
      dispatcherFaultAt((await targets.load("central-ems"))!.dispatcherFault, s.runtime.clock.nowMs());
    try {
      expect(await faultNow()).toBe("ok");
      await setDispatcherNetworkFault({ ...opts, key: "central-ems", mode: "refused", for: "1m" });
      expect(await faultNow()).toBe("refused");
      await advanceClock({ ...opts, byMs: 61_000 });
      expect(await faultNow()).toBe("ok");
      await expect(setDispatcherNetworkFault({ ...opts, key: "central-ems", mode: "down" })).rejects.toMatchObject({
        code: "ValidationFailed",
      });
    } finally {
      targets.close();
    }
  });
});
