// Claim at production (decision 0030): the planning write inserts an idle lane's new head already
// claimed by this process's worker and hands it over after the commit; everything else of the lane
// is planned pending, and a lane with an unfinished row is never claimed around it. A stand-in
// worker (a registered claimer) shows what the write hands over.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimDeliveries } from "../delivery/claim-deliveries.ts";
import type { ClaimedDelivery } from "../outbox/outbox-row.ts";
import { registerLocalClaimer } from "../outbox/local-claimer.ts";
import { buildChange, buildSnapshot, EMS, NORTH } from "../testing/build-change.ts";
import { startWebhookHarness, type WebhookHarness } from "../testing/webhook-harness.ts";
import { webhookEvents } from "../webhook-events.ts";

const ID = "0e7f0000-0000-4000-8000-0000000000c1";
const WORKER = "delivery-test-claimer";
let h: WebhookHarness;
let room: number;
let taken: ClaimedDelivery[];
let wakes: Array<readonly string[] | undefined>;
let unregister: () => void;
const onWake = (lanes?: readonly string[]) => void wakes.push(lanes);

beforeEach(async () => {
  h = await startWebhookHarness();
  room = 64;
  taken = [];
  wakes = [];
  unregister = registerLocalClaimer(h.database.db, {
    workerId: WORKER,
    leaseMs: 30_000,
    room: () => room,
    take: (rows) => void taken.push(...rows),
  });
  webhookEvents().on("outbox:wake", onWake);
});
afterEach(async () => {
  webhookEvents().off("outbox:wake", onWake);
  unregister();
  await h.close();
});

const rows = (incidentId = ID) =>
  h.database.db.webhookDelivery.findMany({
    where: { incidentId },
    orderBy: { id: "asc" },
    select: { id: true, requestId: true, integrationKey: true, state: true, claimedBy: true, body: true },
  });
const created = () => buildChange({ kind: "incident.created" }, buildSnapshot({ id: ID }));
const label = (seq: number) =>
  buildChange({ kind: "labelChanged" }, buildSnapshot({ id: ID, label: `L${seq}` }), { seq });

describe("claim at production", () => {
  it("inserts an idle lane's first new event claimed, with its lease, and hands it over after the commit", async () => {
    await h.commit(created());
    await h.commit(label(2)); // queued behind the claimed head
    const [head, next] = await rows();
    expect(head).toMatchObject({ state: "delivering", claimedBy: WORKER });
    expect(next).toMatchObject({ state: "pending", claimedBy: null });
    const [lease] = await h.database.db.$queryRaw<Array<{ s: number }>>`
      SELECT extract(epoch FROM "leaseExpiresAt" - clock_timestamp())::float8 AS s FROM "WebhookDelivery" WHERE id = ${head!.id}`;
    expect(lease!.s).toBeGreaterThan(25);
    expect(lease!.s).toBeLessThanOrEqual(30);

    // What a claim of the row would have returned: the same event, body and all.
    expect(taken).toHaveLength(1);
    expect(taken[0]).toMatchObject({ id: head!.id, requestId: head!.requestId, attemptCount: 0 });
    expect(taken[0]!.body).toEqual(head!.body);
    // The queued event woke the worker with its lane (the worker knows it holds that lane's head).
    expect(wakes).toEqual([[`north-psap\n${ID}`]]);
  });

  it("never claims around an unfinished row: the claims and the successor claim keep the lane sequential", async () => {
    await h.commit(created());
    await h.commit(label(2));
    // A claim finds nothing: the lane's head is in flight.
    const claimed = await claimDeliveries(h.database.db, {
      now: h.clock.now(),
      leaseMs: 30_000,
      workerId: "another-worker",
      limit: 10,
    });
    expect(claimed).toEqual([]);

    // A head waiting for its retry keeps the lane: a new event is planned pending.
    await h.database.db.webhookDelivery.updateMany({
      where: { incidentId: ID, state: "delivering" },
      data: {
        state: "pending",
        claimedBy: null,
        claimedAt: null,
        leaseExpiresAt: null,
        nextAttemptAt: new Date(Date.now() + 60_000),
      },
    });
    await h.commit(label(3));
    expect((await rows()).map((r) => r.state)).toEqual(["pending", "pending", "pending"]);

    // Once every row is finished, the lane is idle again: the next new event is claimed.
    await h.database.db.webhookDelivery.updateMany({ where: { incidentId: ID }, data: { state: "delivered" } });
    await h.commit(label(4));
    expect((await rows()).at(-1)).toMatchObject({ state: "delivering", claimedBy: WORKER });
    expect(taken).toHaveLength(2);
  });

  it("claims as many lanes as the worker has room for, and none without room or without a worker", async () => {
    await h.pointIntegration("central-ems");
    const twoAgencies = (seq: number) =>
      buildChange(
        seq === 1 ? { kind: "incident.created" } : { kind: "labelChanged" },
        buildSnapshot({
          id: ID,
          label: `L${seq}`,
          involvedAgencies: [
            { id: NORTH, displayName: "North PSAP", collaboration: "Owner", invitedBy: null },
            {
              id: EMS,
              displayName: "Central EMS",
              collaboration: "Accepted",
              invitedBy: { id: NORTH, displayName: "North PSAP" },
            },
          ],
        }),
        { seq },
      );
    room = 1;
    await h.commit(twoAgencies(1));
    const heads = new Map<string, string>(); // each lane's first row's state
    for (const r of await rows()) if (!heads.has(r.integrationKey)) heads.set(r.integrationKey, r.state);
    expect([...heads.keys()].toSorted()).toEqual(["central-ems", "north-psap"]);
    expect([...heads.values()].toSorted()).toEqual(["delivering", "pending"]);
    expect(taken).toHaveLength(1);

    await h.database.db.webhookDelivery.updateMany({ where: { incidentId: ID }, data: { state: "delivered" } });
    room = 0;
    await h.commit(twoAgencies(2));
    unregister();
    await h.commit(twoAgencies(3));
    expect((await rows()).filter((r) => r.state !== "delivered").map((r) => r.state)).toEqual([
      "pending",
      "pending",
      "pending",
      "pending",
    ]);
    expect(taken).toHaveLength(1);
  });
});
