// The retention pruner on a real database (both: the embedded and, with TEST_DATABASE_URL, the
// external one): data of every kind written at one workbench time, more 30 days later, and a run with
// the clock past both; then exactly what remains, and that the pages of what stays still read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../api/root.ts";
import { createTRPCContext } from "../../api/trpc.ts";
import { createIncident } from "../../incidents/create-incident.ts";
import { AGENCY } from "../../directory/seed-ids.ts";
import { setRuntime } from "../../runtime.ts";
import { sqlPool } from "../../platform/db/sql-transaction.ts";
import { advanceClock, resetClock } from "../clock-control.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { pruneOldData } from "./prune-old-data.ts";
import { startRetentionWorker } from "./retention-worker.ts";
import {
  days,
  emptyPrunedTables,
  insertConformanceRun,
  insertDelivery,
  insertRecord,
  insertSignIn,
  TEST_INTEGRATION,
} from "./testing/retention-fixture.ts";

const OLD_INCIDENT = "7e7e0000-0000-4000-8000-000000000001";
const NEW_INCIDENT = "7e7e0000-0000-4000-8000-000000000002";
let s: TestServer;
let caller: ReturnType<typeof createCaller>;

beforeAll(async () => {
  s = await startTestServer({ env: { RETENTION_DAYS: "14" } });
  setRuntime(s.runtime);
  caller = createCaller(await createTRPCContext({ headers: new Headers() }));
});
afterAll(async () => {
  setRuntime(undefined);
  await s?.close();
});

/** A jump of the workbench clock as a user makes it: the clock controls move at most a week at a time. */
async function jumpDays(n: number) {
  const { db, clock } = s.runtime;
  for (let left = n; left > 0; left -= 6) await advanceClock({ db, clock, byMs: days(Math.min(6, left)) });
}

async function makeIncident(id: string) {
  const { db, clock } = s.runtime;
  await createIncident({
    ...{ db, clock, portalUrl: "http://wb.test", id, purpose: "Test", routingMode: "TokenAgency" },
    ...{ createdByAgencyId: AGENCY.northPsap, agencyIds: [AGENCY.northPsap], phoneNumber: null, actor: "test" },
  });
}

describe("a run after the clock moved 30 days ahead (RETENTION_DAYS=14)", () => {
  const kept = { deliveries: [] as bigint[], records: [] as bigint[], runs: [] as string[] };
  let outcome: Awaited<ReturnType<typeof pruneOldData>>;

  beforeAll(async () => {
    const { db, clock } = s.runtime;
    await resetClock({ db, clock });
    await emptyPrunedTables(db);
    const t0 = clock.now();
    await makeIncident(OLD_INCIDENT);
    for (const state of ["delivered", "expired", "superseded", "delivered", "delivered"] as const)
      await insertDelivery(db, { incidentId: OLD_INCIDENT, at: t0, state });
    // A lane's undelivered events, as old as the rest: they expire by the rules, never by retention.
    for (const state of ["pending", "delivering"] as const)
      kept.deliveries.push((await insertDelivery(db, { incidentId: OLD_INCIDENT, at: t0, state })).id);
    await insertRecord(db, { incidentId: OLD_INCIDENT, at: t0, outcome: "accepted", processed: true });
    await insertRecord(db, { incidentId: OLD_INCIDENT, at: t0, outcome: "rejected-token", processed: false });
    const unapplied = await insertRecord(db, {
      incidentId: "unapplied",
      at: t0,
      outcome: "accepted",
      processed: false,
    });
    kept.records.push(unapplied.id);
    await insertConformanceRun(db, { at: t0, finished: true });
    kept.runs.push((await insertConformanceRun(db, { at: t0, finished: false })).id);
    await insertSignIn(db, { at: t0, tag: "old", liveFor: 600_000 });
    await insertSignIn(db, { at: t0, tag: "long", liveFor: days(40) });

    await jumpDays(30);
    const t30 = clock.now();
    await makeIncident(NEW_INCIDENT);
    for (const state of ["delivered", "expired"] as const)
      kept.deliveries.push((await insertDelivery(db, { incidentId: NEW_INCIDENT, at: t30, state })).id);
    kept.records.push(
      (await insertRecord(db, { incidentId: NEW_INCIDENT, at: t30, outcome: "accepted", processed: true })).id,
    );
    kept.runs.push((await insertConformanceRun(db, { at: t30, finished: true })).id);
    await insertSignIn(db, { at: t30, tag: "new", liveFor: 600_000 });

    // Batches of 2 rows: every walk and keyed delete takes several batches.
    outcome = await pruneOldData({ db, clock, retentionDays: 14, batchRows: 2, pauseMs: 0 });
  });

  it("prunes exactly the finished deliveries, applied or refused records, finished runs and dead artefacts", () => {
    expect(outcome).toMatchObject({
      ran: true,
      pruned: { deliveries: 5, receiverRecords: 2, conformanceRuns: 1, signInArtefacts: 7 },
    });
  });

  it("keeps a lane's undelivered events, the new deliveries and their attempts only", async () => {
    const { db } = s.runtime;
    const left = await db.webhookDelivery.findMany({ orderBy: { id: "asc" }, select: { id: true } });
    expect(left.map((d) => d.id)).toEqual(kept.deliveries);
    const attempts = await db.webhookAttempt.findMany({ select: { deliveryId: true } });
    expect(attempts.map((a) => a.deliveryId).sort()).toEqual(kept.deliveries.slice(2).sort());
  });

  it("keeps unapplied and new receiver records, running and new conformance runs", async () => {
    const { db } = s.runtime;
    const records = await db.receiverRecord.findMany({
      where: { integrationKey: TEST_INTEGRATION },
      orderBy: { id: "asc" },
    });
    expect(records.map((r) => r.id)).toEqual(kept.records);
    const runs = await db.conformanceRun.findMany({ select: { id: true } });
    expect(runs.map((r) => r.id).sort()).toEqual([...kept.runs].sort());
  });

  it("keeps sign-in artefacts still usable after the cutoff, and whole refresh-token families", async () => {
    const { db } = s.runtime;
    expect((await db.signinToken.findMany()).map((t) => t.tokenHash).sort()).toEqual(["st-long", "st-new"]);
    expect((await db.authorizationCode.findMany()).map((t) => t.codeHash).sort()).toEqual(["ac-long", "ac-new"]);
    expect((await db.portalSession.findMany()).map((t) => t.idHash).sort()).toEqual(["ps-long", "ps-new"]);
    expect((await db.workbenchSession.findMany()).map((t) => t.idHash).sort()).toEqual(["ws-long", "ws-new"]);
    expect((await db.refreshToken.findMany()).map((t) => t.tokenHash).sort()).toEqual([
      "rt-long",
      "rt-long-spent",
      "rt-new",
      "rt-new-spent",
    ]);
    expect((await db.guessThrottle.findMany()).map((t) => t.key).sort()).toEqual(["subject:long", "subject:new"]);
  });

  it("keeps incidents, their change history and the receiver's progress", async () => {
    const { db } = s.runtime;
    expect(await db.incident.count({ where: { id: { in: [OLD_INCIDENT, NEW_INCIDENT] } } })).toBe(2);
    expect(await db.incidentChange.count({ where: { incidentId: OLD_INCIDENT } })).toBeGreaterThan(0);
    const marks = { integrationKey: TEST_INTEGRATION, incidentKey: { in: [OLD_INCIDENT, NEW_INCIDENT] } };
    expect(await db.receiverProgress.count({ where: marks })).toBe(2);
  });

  it("leaves the pages of an incident whose deliveries were pruned readable", async () => {
    const detail = await caller.incidents.detail({ incidentId: OLD_INCIDENT });
    expect(detail).toBeTruthy();
    const page = await caller.deliveries.inspect({ incidentId: OLD_INCIDENT });
    expect(page.items.map((d) => d.state).sort()).toEqual(["delivering", "pending"]);
    const file = await caller.deliveries.export({ incidentId: OLD_INCIDENT });
    expect(file.deliveries).toHaveLength(2);
    const events = await caller.receivers.events({ key: TEST_INTEGRATION, incidentId: OLD_INCIDENT });
    expect(events).toBeDefined();
    expect(await caller.receivers.replicas({ key: TEST_INTEGRATION })).toBeDefined();
    expect((await caller.conformance.history()).length).toBe(2);
  });

  it("records the run for the Admin page, with totals that add up across runs", async () => {
    const status = await caller.retention.status();
    expect(status.retentionDays).toBe(14);
    expect(status.lastRun?.pruned).toEqual({
      deliveries: 5,
      receiverRecords: 2,
      conformanceRuns: 1,
      signInArtefacts: 7,
    });
    expect(status.lastRun?.finishedAt).not.toBeNull();
    const deliveries = status.groups.find((g) => g.id === "deliveries");
    expect(deliveries).toMatchObject({ policy: "pruned", rows: 4 });
    expect(deliveries?.bytes).toBeGreaterThan(0);
    expect(status.databaseBytes).toBeGreaterThan(status.groups.reduce((n, g) => n + g.bytes, 0));
    // A second run finds nothing more: the totals stay, the last run counts 0.
    await caller.retention.pruneNow();
    const again = await caller.retention.status();
    expect(again.lastRun?.pruned).toEqual({
      deliveries: 0,
      receiverRecords: 0,
      conformanceRuns: 0,
      signInArtefacts: 0,
    });
    expect(again.lastRun?.prunedTotal).toEqual({
      deliveries: 5,
      receiverRecords: 2,
      conformanceRuns: 1,
      signInArtefacts: 7,
    });
  });
});

describe("when it does not run", () => {
  it("RETENTION_DAYS=0 keeps everything", async () => {
    const { db, clock } = s.runtime;
    await emptyPrunedTables(db);
    await insertDelivery(db, { incidentId: OLD_INCIDENT, at: new Date(clock.nowMs() - days(400)), state: "delivered" });
    expect(await pruneOldData({ db, clock, retentionDays: 0 })).toEqual({ ran: false, reason: "disabled" });
    expect(await db.webhookDelivery.count()).toBe(1);
  });

  it("skips its run while another process holds the pruner's lock", async () => {
    const { db, clock } = s.runtime;
    const other = await sqlPool(db).connect();
    try {
      await other.query("SELECT pg_advisory_lock(hashtext('workbench.retention'))");
      expect(await pruneOldData({ db, clock, retentionDays: 14 })).toEqual({ ran: false, reason: "busy" });
      expect(await db.webhookDelivery.count()).toBe(1);
    } finally {
      await other.query("SELECT pg_advisory_unlock(hashtext('workbench.retention'))");
      other.release();
    }
  });
});

describe("the worker", () => {
  it("runs shortly after a clock jump, and prunes what the jump made old", async () => {
    const { db, clock } = s.runtime;
    await resetClock({ db, clock });
    await emptyPrunedTables(db);
    await insertDelivery(db, { incidentId: OLD_INCIDENT, at: clock.now(), state: "delivered" });
    const worker = await startRetentionWorker(s.runtime);
    try {
      await jumpDays(30);
      await expect.poll(() => db.webhookDelivery.count(), { timeout: 10_000, interval: 200 }).toBe(0);
    } finally {
      await worker.stop();
    }
  });
});
