// End to end through the outbox: a change committed the way the aggregate
// commits it → planned in its transaction → claimed → sent to a real local
// receiver → recorded. Time moves only on the workbench clock.
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { inSqlTransaction } from "../../platform/db/sql-transaction.ts";
import { verifyAccessToken } from "../../identity/access-token.ts";
import { publisherAudience, PUBLISHER } from "../../identity/service-tokens.ts";
import { V3_EVENT_BODIES, v3FlagOfEventName } from "../../webhook-contracts/v3/routes.ts";
import { buildChange, buildSnapshot, measured, NORTH } from "../testing/build-change.ts";
import { recordAttempts, startWebhookHarness, waitForEvents, type WebhookHarness } from "../testing/webhook-harness.ts";
import { startDeliveryWorker } from "./delivery-worker.ts";
import { cutOverLane } from "../planning/supersede-queued-events.ts";

const ID = "5d1f0000-0000-4000-8000-000000000001";
let h: WebhookHarness;
let worker: Awaited<ReturnType<typeof startDeliveryWorker>>;

beforeEach(async () => {
  h = await startWebhookHarness();
  worker = await startDeliveryWorker(h.runtime, { cutOverLane, timeoutMs: 2_000 });
});
afterEach(async () => {
  await worker.stop();
  await h.close();
});

function snapshotAt(label: string | null) {
  const base = buildSnapshot({ id: ID, label });
  return {
    ...base,
    caller: {
      ...base.caller,
      tracks: [{ source: "MobileApp" as const, track: [measured("MobileApp", "2026-11-22T06:00:00.000Z")] }],
    },
  };
}
const producedAt = () => h.clock.now();

describe("delivery", () => {
  it("plans in the change's transaction and delivers in order with the v3 headers, a Publisher token and schema-valid bodies", async () => {
    const delivered = waitForEvents("delivery:delivered", 3);
    await h.commit(buildChange({ kind: "incident.created" }, snapshotAt(null), { seq: 1, producedAt: producedAt() }));
    await h.commit(
      buildChange({ kind: "labelChanged" }, snapshotAt("Smoke at pier 4"), { seq: 2, producedAt: producedAt() }),
    );
    await delivered;

    expect(h.receiver.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v3/incidents",
      `PUT /v3/incidents/${ID}/caller/track`,
      `PATCH /v3/incidents/${ID}/label`,
    ]);
    const rows = await h.database.db.webhookDelivery.findMany({ orderBy: { id: "asc" }, include: { attempts: true } });
    expect(rows.map((r) => r.state)).toEqual(["delivered", "delivered", "delivered"]);
    for (const [i, r] of h.receiver.received.entries()) {
      const row = rows[i]!;
      expect(r.headers["service-request-id"]).toBe(row.requestId);
      expect(r.headers["service-request-timestamp"]).toBe(row.producedAt.toISOString());
      const token = String(r.headers.authorization).replace(/^Bearer /, "");
      const claims = await verifyAccessToken({
        token,
        keys: h.runtime.keys,
        clock: h.clock,
        issuer: h.runtime.env.AUTH_URL,
        audience: publisherAudience(NORTH),
      });
      expect([claims.sub, claims.client_id, claims.scope]).toEqual([PUBLISHER, PUBLISHER, "webhooks.receive"]);
      expect(() => V3_EVENT_BODIES[v3FlagOfEventName(row.eventName)!.flag].parse(r.body)).not.toThrow();
      expect(row.attempts[0]!.requestHeaders).toMatchObject({ authorization: "Bearer [redacted]" });
      // Tracing off (no OTLP endpoint): no trace context is kept or sent (tracing.int.test.ts has it on).
      expect([r.headers.traceparent, row.traceparent]).toEqual([undefined, null]);
    }
    expect(h.receiver.received[2]!.body).toEqual({ label: "Smoke at pier 4" });
  });

  it("a change whose transaction rolls back plans nothing", async () => {
    await expect(
      inSqlTransaction(h.database.db, async (tx) => {
        const { notifyChangeSubscribers } = await import("../../incidents/change-record.ts");
        await notifyChangeSubscribers(tx, [
          buildChange({ kind: "incident.created" }, snapshotAt(null), { producedAt: producedAt() }),
        ]);
        throw new Error("aggregate rejected the change");
      }),
    ).rejects.toThrow("aggregate rejected");
    expect(await h.database.db.webhookDelivery.count()).toBe(0);
  });

  it("only 200 accepts; retries keep the Service-Request-Id, come 1 s then 2 s later on the workbench clock, and hold the lane", async () => {
    const statuses = [204, 500, 200];
    h.receiver.respondWith((r) => (r.method === "POST" && r.path === "/v3/incidents" ? statuses.shift()! : 200));
    await h.pointIntegration("north-psap", ["incident.created", "labelChanged"]);
    const attempts = recordAttempts({ advance: h.advanceClock });
    onTestFinished(attempts.stop);
    await h.commit(buildChange({ kind: "incident.created" }, snapshotAt(null), { seq: 1, producedAt: producedAt() }));
    await h.commit(buildChange({ kind: "labelChanged" }, snapshotAt("x"), { seq: 2, producedAt: producedAt() }));
    await attempts.reach(1);
    const [first] = attempts.seen;
    expect([first!.status, first!.error]).toEqual([204, "HTTP 204: only 200 accepts a delivery"]);

    const head = async () =>
      h.database.db.webhookDelivery.findFirstOrThrow({
        where: { eventName: "created" },
        include: { attempts: { orderBy: { attempt: "asc" } } },
      });
    await attempts.retryAfter(1, 1_000); // 1 s after the failure
    await attempts.retryAfter(2, 2_000); // then 2 s after the second
    await attempts.reach(4); // the label, once the create was accepted
    // Each retry's due time after its failure (= the attempt's start plus its duration; exact values
    // are in decide-retry.test.ts).
    const { attempts: recorded } = await head();
    const sinceFailure = attempts.seen.slice(0, 2).map((e, i) => {
      const a = recorded[i]!;
      return e.retryAt!.getTime() - a.startedAt.getTime() - a.durationMs;
    });
    expect(sinceFailure[0]).toBeGreaterThanOrEqual(999);
    expect(sinceFailure[0]).toBeLessThanOrEqual(1_010);
    expect(sinceFailure[1]).toBeGreaterThanOrEqual(1_999);
    expect(sinceFailure[1]).toBeLessThanOrEqual(2_010);
    // The label waited behind the failing create; every try of the create kept its Service-Request-Id.
    expect(h.receiver.received.map((r) => r.path)).toEqual([
      "/v3/incidents",
      "/v3/incidents",
      "/v3/incidents",
      `/v3/incidents/${ID}/label`,
    ]);
    expect(new Set(h.receiver.received.slice(0, 3).map((r) => r.headers["service-request-id"])).size).toBe(1);
    expect((await head()).attemptCount).toBe(3);
  });

  it("the events claimed behind a head leave only after the head's 200; a failure gives them back before the failure is recorded, and they follow the retry", async () => {
    // The create's answer is held while the burst commits: on a loaded machine that outlasts the
    // suite's 2 s attempt deadline, and a timed-out create would be retried ahead of L1.
    await worker.stop();
    worker = await startDeliveryWorker(h.runtime, { cutOverLane, timeoutMs: 20_000 });
    let answerCreated!: () => void;
    const created = new Promise<number>((resolve) => (answerCreated = () => resolve(200)));
    let failL1 = true;
    h.receiver.respondWith((r) => {
      if (r.path === "/v3/incidents") return created; // held until the whole burst is committed
      if ((r.body as { label?: string }).label === "L1" && failL1) {
        failL1 = false;
        return 503;
      }
      return new Promise((resolve) => setTimeout(() => resolve(200), 20));
    });
    await h.pointIntegration("north-psap", ["incident.created", "labelChanged"]);
    const attempted = waitForEvents("delivery:attempted", 2);
    await h.commit(buildChange({ kind: "incident.created" }, snapshotAt(null), { seq: 1, producedAt: producedAt() }));
    for (const n of [1, 2, 3])
      await h.commit(
        buildChange({ kind: "labelChanged" }, snapshotAt(`L${n}`), { seq: n + 1, producedAt: producedAt() }),
      );
    answerCreated();
    // The create's record claimed L1 and the two behind it; L1 failed, so L2 and L3 went back to
    // pending before L1's retry was recorded.
    const delivered = waitForEvents("delivery:delivered", 3);
    const [, failed] = (await attempted).map(([e]) => e);
    expect(failed!.status).toBe(503);
    const rows = await h.database.db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    // Unless real time brought L1's retry first (a second on a slow machine): then the lane moved on.
    if (rows[1]!.state === "pending")
      expect(rows.map((r) => [r.state, r.claimedBy, r.attemptCount])).toEqual([
        ["delivered", null, 1],
        ["pending", null, 1],
        ["pending", null, 0],
        ["pending", null, 0],
      ]);
    h.advanceClock(1_000);
    await delivered;
    expect(h.receiver.received.map((r) => (r.body as { label?: string }).label ?? "created")).toEqual([
      "created",
      "L1",
      "L1",
      "L2",
      "L3",
    ]);
    expect(h.receiver.maxConcurrentPerIncident).toBe(1);
  });

  it("advancing the clock 61 minutes expires a stalled head at once and unblocks the next event", async () => {
    h.receiver.respondWith((r) => (r.path === "/v3/incidents" ? 503 : 200));
    await h.pointIntegration("north-psap", ["incident.created", "labelChanged"]);
    const attempted = waitForEvents("delivery:attempted", 1);
    const t0 = producedAt();
    await h.commit(buildChange({ kind: "incident.created" }, snapshotAt(null), { seq: 1, producedAt: t0 }));
    await h.commit(
      buildChange({ kind: "labelChanged" }, snapshotAt("late"), {
        seq: 2,
        producedAt: new Date(t0.getTime() + 30 * 60_000),
      }),
    );
    await attempted;
    const expired = waitForEvents("delivery:expired", 1);
    const delivered = waitForEvents("delivery:delivered", 1);
    h.advanceClock(61 * 60_000);
    await expired;
    await delivered;
    const rows = await h.database.db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.eventName, r.state])).toEqual([
      ["created", "expired"],
      ["IncidentLabelChanged", "delivered"],
    ]);
    // The receiver never got the MobileApp track in full: no append may be planned for it from now on.
    const lane = await h.database.db.webhookLane.findFirstOrThrow({ where: { incidentId: ID } });
    expect(lane.fullTracks).toEqual([]);
  });

  it("an incident's later changes reach only declared routes, and a receiver without flags for them gets nothing", async () => {
    await h.pointIntegration("north-psap", ["incident.created"]);
    const delivered = waitForEvents("delivery:delivered", 1);
    await h.commit(buildChange({ kind: "incident.created" }, snapshotAt(null), { seq: 1, producedAt: producedAt() }));
    await h.commit(buildChange({ kind: "labelChanged" }, snapshotAt("ignored"), { seq: 2, producedAt: producedAt() }));
    await delivered;
    expect(await h.database.db.webhookDelivery.count()).toBe(1);
  });
});
