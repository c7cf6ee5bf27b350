// The aggregate's optimistic path (apply-change.ts) on a real database: changes
// arriving together are written in one record statement; a change whose
// incident changed since its read is read again; a refusal or a failed
// statement costs no other change; concurrent writers, in one process or
// several, never lose an update and keep seq, positions and outbox rows in order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENCY } from "../../prisma/seed.ts";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import { createDbClient, Prisma, type DbClient } from "../platform/db/client.ts";
import { sqlPool } from "../platform/db/sql-transaction.ts";
import { acceptDeclaration, MINIMAL_FLAGS } from "../webhooks/testing/accept-declaration.ts";
import { V3_FLAGS } from "../webhook-contracts/v3/capability-flags.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { planDeliveriesOnChange } from "../webhooks/planning/plan-deliveries.ts";
import { applyIncidentChange } from "./apply-change.ts";
import { addEnteredLocation } from "./caller-track.ts";
import { batcherOf } from "./change-batcher.ts";
import { subscribeToChanges } from "./change-record.ts";
import { closeIncident } from "./close-incident.ts";
import { createIncident } from "./create-incident.ts";
import { setIncidentText } from "./set-incident-text.ts";

let database: TestDatabase;
let second: DbClient;
const clock = new WorkbenchClock();
let unsubscribe: () => void;
beforeAll(async () => {
  database = await createTestDatabase();
  second = createDbClient(database.url, { poolSize: 4 });
  unsubscribe = subscribeToChanges(planDeliveriesOnChange);
  // Planned for the minimal generic shape (every change gets an outbox row to check the order of).
  await acceptDeclaration(database.db, ["north-psap", "central-ems"], MINIMAL_FLAGS, clock.now());
});
afterAll(async () => {
  unsubscribe();
  await second.$disconnect();
  await database.drop();
});

async function newIncident(db: DbClient = database.db) {
  const { incident } = await createIncident({
    db,
    clock,
    portalUrl: "http://wb.test",
    purpose: "Test",
    routingMode: "TokenAgency",
    createdByAgencyId: AGENCY.northPsap,
    agencyIds: [AGENCY.northPsap],
    phoneNumber: null,
    actor: "test",
  });
  return incident.id;
}

const on = (incidentId: string, db: DbClient = database.db) => ({
  db,
  clock,
  incidentId,
  actor: "test",
  access: { agencyId: AGENCY.northPsap },
});

/** The aggregate's statements, by a part of their text: the record statement, and the read (its column `seenEpoch`). */
const RECORD_STATEMENT = 'INSERT INTO "IncidentChange"';
const READ_STATEMENT = 'AS "seenEpoch"';

/** Runs `fn` with each statement sent on a client's pool whose text holds `part` passed through `onMatch` (which sends it with `send`). */
async function withStatements<T>(
  db: DbClient,
  part: string,
  onMatch: (send: () => Promise<unknown>) => Promise<unknown>,
  fn: () => Promise<T>,
): Promise<T> {
  const pool = sqlPool(db);
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text;
    return text?.includes(part) ? onMatch(() => query(...args)) : query(...args);
  };
  try {
    return await fn();
  } finally {
    (pool as { query: unknown }).query = query;
  }
}

/** An incident's version, label and summary as stored. */
const stored = async (id: string) =>
  (
    await database.db.$queryRaw<Array<{ version: number; label: string | null; summary: string | null }>>`
    SELECT version, snapshot->>'label' AS label, snapshot->>'summary' AS summary FROM "Incident" WHERE id = ${id}::uuid`
  )[0];

/** Everything that must hold for an incident after `n` appends (besides its creation): versions, seqs, positions and outbox rows in one order. */
async function expectConsistent(incidentId: string, appends: number, extraChanges = 0) {
  const [row] = await database.db.$queryRaw<
    Array<{ version: number; lastSeq: number }>
  >`SELECT version, "lastSeq" FROM "Incident" WHERE id = ${incidentId}::uuid`;
  const changes = appends + extraChanges;
  expect(row).toEqual({ version: 1 + changes, lastSeq: 1 + changes });
  const seqs = await database.db.incidentChange.findMany({
    where: { incidentId },
    orderBy: { seq: "asc" },
    select: { seq: true },
  });
  expect(seqs.map((c) => c.seq)).toEqual(Array.from({ length: 1 + changes }, (_, i) => i + 1));
  const positions = await database.db.incidentPosition.findMany({
    where: { incidentId },
    orderBy: { id: "asc" },
    select: { addedSeq: true },
  });
  expect(positions).toHaveLength(appends);
  const added = positions.map((p) => p.addedSeq);
  expect(added).toEqual([...added].sort((a, b) => a - b));
  expect(new Set(added).size).toBe(appends);
  const outbox = await database.db.webhookDelivery.findMany({
    where: { incidentId },
    orderBy: { id: "asc" },
    select: { changeSeq: true, integrationKey: true, method: true, path: true },
  });
  expect(outbox.map((d) => d.changeSeq)).toEqual([...outbox.map((d) => d.changeSeq)].sort((a, b) => a - b));
  expect(new Set(outbox.map((d) => d.changeSeq))).toEqual(new Set(seqs.map((c) => c.seq)));
  // No change planned twice (a write that did not apply writes no outbox row).
  const planned = outbox.map((d) => `${d.changeSeq} ${d.integrationKey} ${d.method} ${d.path}`);
  expect(new Set(planned).size).toBe(planned.length);
}

describe("changes arriving together", () => {
  it("are written in fewer record statements than changes, each incident with its own seq, positions and outbox rows", async () => {
    const ids = await Promise.all(Array.from({ length: 16 }, () => newIncident()));
    let statements = 0;
    await withStatements(
      database.db,
      RECORD_STATEMENT,
      (send) => (statements++, send()),
      () =>
        Promise.all(
          ids.flatMap((id) =>
            [1, 2, 3].map((k) => addEnteredLocation({ ...on(id), point: { latitude: k, longitude: 10 } })),
          ),
        ),
    );
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThan(16 * 3);
    for (const id of ids) await expectConsistent(id, 3);
  });

  it("of one incident are applied one after another, none lost, in seq order", async () => {
    const id = await newIncident();
    const applied = await Promise.all(
      Array.from({ length: 30 }, (_, k) => addEnteredLocation({ ...on(id), point: { latitude: k, longitude: 10 } })),
    );
    expect(applied.map((a) => a.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, k) => k + 2));
    await expectConsistent(id, 30);
  });

  it("from two processes on the same incidents never lose an update (conflicting writes are read again, or wait on the row lock)", async () => {
    const ids = await Promise.all([newIncident(), newIncident(), newIncident()]);
    await Promise.all(
      ids.flatMap((id) =>
        Array.from({ length: 20 }, (_, k) =>
          addEnteredLocation({ ...on(id, k % 2 ? second : database.db), point: { latitude: k, longitude: 10 } }),
        ),
      ),
    );
    for (const id of ids) await expectConsistent(id, 20);
  });

  it("a refusal answers its own change only: the others in the batch are written", async () => {
    const [open, closed] = await Promise.all([newIncident(), newIncident()]);
    await closeIncident({ ...on(closed) });
    const [ok, refused] = await Promise.allSettled([
      addEnteredLocation({ ...on(open), point: { latitude: 1, longitude: 10 } }),
      addEnteredLocation({ ...on(closed), point: { latitude: 1, longitude: 10 } }),
    ]);
    expect(ok.status).toBe("fulfilled");
    expect(refused).toMatchObject({ status: "rejected", reason: { code: "IncidentClosed", status: 409 } });
    await expectConsistent(open, 1);
    expect(await database.db.incidentPosition.count({ where: { incidentId: closed } })).toBe(0);
  });
});

describe("a change whose incident changed after its read", () => {
  /** Sets the summary, calling `interfere(run)` between each run's read and its write; resolves with the run that was written. */
  const summaryChange = (id: string, interfere: (run: number) => Promise<void>) => {
    let runs = 0;
    return applyIncidentChange({
      ...on(id),
      mutate: async ({ incident }) => {
        await interfere(++runs);
        incident.snapshot.summary = `run ${runs} after version ${incident.version}`;
        return { changes: [{ kind: "summaryChanged" }], result: runs };
      },
    });
  };

  it("is read and mutated again, so the other writer's change is kept", async () => {
    const id = await newIncident();
    // Another process changes the incident between the first run's read and its write.
    const applied = await summaryChange(id, async (run) => {
      if (run === 1) await setIncidentText({ ...on(id, second), field: "label", value: "from the other writer" });
    });
    expect(applied.result).toBe(2);
    expect(await stored(id)).toEqual({ version: 3, label: "from the other writer", summary: "run 2 after version 2" });
  });

  it("takes the row lock after OPTIMISTIC_ATTEMPTS conflicts, and is then written", async () => {
    const id = await newIncident();
    // Conflicts on every optimistic run; the locked run (third) holds the row lock, so the other writer waits behind it.
    const applied = await summaryChange(id, async (run) => {
      const other = setIncidentText({ ...on(id, second), field: "callSign", value: `call sign ${run}` });
      if (run < 3) await other;
      else void other.catch(() => {});
    });
    expect(applied.result).toBe(3);
    expect((await stored(id))!.summary).toBe("run 3 after version 3");
  });
});

describe("a record statement that fails as a whole", () => {
  it("writes nothing of it, and each of its changes is then applied on its own: only the failing one fails", async () => {
    const [good, bad] = await Promise.all([newIncident(), newIncident()]);
    const off = subscribeToChanges({
      name: "test-failing-write",
      plan: async (_tx, changes) => ({ incidentId: changes[0]!.incidentId }),
      // Division by zero for `bad` only: the whole statement fails while `bad` is in it.
      write: (plans) => ({
        ctes: Prisma.sql`test_fail AS (SELECT 1 / (CASE WHEN ${bad}::uuid = ANY(${(plans as Array<{ incidentId: string }>).map((p) => p.incidentId)}::uuid[]) THEN 0 ELSE 1 END) AS x)`,
        result: Prisma.sql`(SELECT x FROM test_fail)`,
      }),
    });
    try {
      const [ok, failed] = await Promise.allSettled([
        addEnteredLocation({ ...on(good), point: { latitude: 1, longitude: 10 } }),
        addEnteredLocation({ ...on(bad), point: { latitude: 1, longitude: 10 } }),
      ]);
      expect(ok.status).toBe("fulfilled");
      expect(failed).toMatchObject({ status: "rejected", reason: { code: "22012" } });
    } finally {
      off();
    }
    await expectConsistent(good, 1);
    await expectConsistent(bad, 0);
  });
});

describe("a record statement whose answer never comes", () => {
  it("answers its changes with the error and never applies them a second time (it may have committed)", async () => {
    const id = await newIncident();
    const lost = new Error("Connection terminated unexpectedly");
    const outcome = await withStatements(
      database.db,
      RECORD_STATEMENT,
      async (send) => {
        await send();
        throw lost;
      },
      () =>
        addEnteredLocation({ ...on(id), point: { latitude: 1, longitude: 10 } }).then(
          () => "applied",
          (error: unknown) => error,
        ),
    );
    expect(outcome).toBe(lost);
    await expectConsistent(id, 1);
  });
});

describe("a change that falls back to the locked path", () => {
  /** Delays every transaction's connection (the locked path's; the optimistic statements use pool.query) by `ms`. */
  async function withSlowTransactions<T>(db: DbClient, ms: number, fn: () => Promise<T>): Promise<T> {
    const pool = sqlPool(db);
    const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
    (pool as { connect: unknown }).connect = (...args: unknown[]) =>
      args.length ? connect(...args) : new Promise((resolve) => setTimeout(resolve, ms)).then(() => connect());
    try {
      return await fn();
    } finally {
      (pool as { connect: unknown }).connect = connect;
    }
  }

  it("keeps its place: the incident's later changes wait for it and commit after it, in arrival order", async () => {
    const id = await newIncident();
    // The first record statement fails as a whole (a refused statement): its change goes the locked way, whose
    // transaction starts late. A later change of the same incident, queued behind it, must still commit after it.
    let failNext = true;
    const off = subscribeToChanges({
      name: "test-fail-once",
      plan: async (_tx, changes) => ({ incidentId: changes[0]!.incidentId }),
      write: () => {
        const divisor = failNext ? 0 : 1;
        failNext = false;
        return {
          ctes: Prisma.sql`test_fail_once AS (SELECT 1 / ${divisor}::int AS x)`,
          result: Prisma.sql`(SELECT x FROM test_fail_once)`,
        };
      },
    });
    try {
      const [first, second, third] = await withSlowTransactions(database.db, 300, () =>
        Promise.all(
          ["first", "second", "third"].map((value) => setIncidentText({ ...on(id), field: "summary", value })),
        ),
      );
      const versions = await database.db.incidentChange.findMany({
        where: { incidentId: id },
        orderBy: { seq: "asc" },
        select: { seq: true, snapshot: true },
      });
      expect(versions.slice(1).map((c) => (c.snapshot as { summary: string }).summary)).toEqual([
        "first",
        "second",
        "third",
      ]);
      expect([first!.version, second!.version, third!.version]).toEqual([2, 3, 4]);
    } finally {
      off();
    }
    const [row] = await database.db.$queryRaw<
      Array<{ summary: string }>
    >`SELECT snapshot->>'summary' AS summary FROM "Incident" WHERE id = ${id}::uuid`;
    expect(row!.summary).toBe("third");
    await expectConsistent(id, 0, 3);
  });

  it("a transactional change waits for the optimistic changes of its incident that arrived before it", async () => {
    const id = await newIncident();
    const order: string[] = [];
    const optimistic = setIncidentText({ ...on(id), field: "summary", value: "before the invitation" }).then(() =>
      order.push("optimistic"),
    );
    const locked = applyIncidentChange({
      ...on(id),
      transactional: true,
      mutate: ({ incident }) => {
        incident.snapshot.label = `after version ${incident.version}`;
        return { changes: [{ kind: "labelChanged" }], result: null };
      },
    }).then(() => order.push("locked"));
    await Promise.all([optimistic, locked]);
    expect(order).toEqual(["optimistic", "locked"]);
    const [row] = await database.db.$queryRaw<
      Array<{ label: string }>
    >`SELECT snapshot->>'label' AS label FROM "Incident" WHERE id = ${id}::uuid`;
    expect(row!.label).toBe("after version 2");
  });
});

describe("a change of an incident this process wrote last (recent-incidents.ts)", () => {
  const text = (id: string, field: "label" | "summary", value: string, db: DbClient = database.db) =>
    setIncidentText({ ...on(id, db), field, value });

  it("starts from what the last write left, without reading the incident again", async () => {
    const id = await newIncident();
    await text(id, "label", "first"); // read, written, remembered
    let reads = 0;
    await withStatements(
      database.db,
      READ_STATEMENT,
      (send) => (reads++, send()),
      async () => {
        await text(id, "summary", "second");
        await addEnteredLocation({ ...on(id), point: { latitude: 1, longitude: 10 } });
      },
    );
    expect(reads).toBe(0);
    expect(await stored(id)).toEqual({ version: 4, label: "first", summary: "second" });
    await expectConsistent(id, 1, 2);
  });

  it("reads again when another process wrote the incident since: the other's change is kept", async () => {
    const id = await newIncident();
    await text(id, "label", "mine");
    await text(id, "label", "the other process's", second);
    await text(id, "summary", "after it");
    expect(await stored(id)).toEqual({ version: 4, label: "the other process's", summary: "after it" });
    await expectConsistent(id, 0, 3);
  });

  it("judges If-Match and a closed incident on the row as it is, not as this process last wrote it", async () => {
    const id = await newIncident();
    await text(id, "label", "mine"); // version 2, remembered
    await text(id, "label", "theirs", second); // version 3
    const applied = await setIncidentText({ ...on(id), ifMatch: '"3"', field: "summary", value: "matched" });
    expect(applied.version).toBe(4);
    await expect(
      setIncidentText({ ...on(id), ifMatch: '"3"', field: "summary", value: "stale" }),
    ).rejects.toMatchObject({ code: "UpdateConflict", status: 409 });

    await closeIncident({ ...on(id, second) });
    await expect(addEnteredLocation({ ...on(id), point: { latitude: 1, longitude: 10 } })).rejects.toMatchObject({
      code: "IncidentClosed",
      status: 409,
    });
    expect(await database.db.incidentPosition.count({ where: { incidentId: id } })).toBe(0);
  });

  it("plans under the capabilities in force: a declaration that changed since the last write is read again", async () => {
    const id = await newIncident();
    const planned = async () =>
      (
        await database.db.webhookDelivery.findMany({
          where: { incidentId: id, integrationKey: "north-psap" },
          select: { changeSeq: true },
          orderBy: { id: "asc" },
        })
      ).map((d) => d.changeSeq);
    await text(id, "label", "planned"); // seq 2, remembered with north-psap's declaration as active
    expect(await planned()).toContain(2);
    await database.db.webhookCapabilities.update({
      where: { integrationKey: "north-psap" },
      data: { status: "rejected" },
    });
    try {
      await text(id, "label", "held");
      // No accepted declaration any more: the change waits, unplanned, for one (plan-held-changes.ts).
      expect(await planned()).not.toContain(3);
      const lane = await database.db.webhookLane.findUnique({
        where: { integrationKey_incidentId: { integrationKey: "north-psap", incidentId: id } },
      });
      expect(lane?.heldFromSeq).toBe(3);
    } finally {
      await acceptDeclaration(database.db, ["north-psap"], MINIMAL_FLAGS, clock.now());
    }
  });

  it("the planning version moves with what planning reads, not with a refresh that found the same declaration", async () => {
    const version = async () =>
      (await database.db.$queryRaw<Array<{ n: bigint }>>`SELECT n FROM "PlanningVersion" WHERE id = 1`)[0]!.n;
    const before = await version();
    await database.db.webhookCapabilities.update({
      where: { integrationKey: "north-psap" },
      data: {
        checkedAt: clock.now(),
        nextCheckAt: new Date(clock.now().getTime() + 60_000),
        flags: [...MINIMAL_FLAGS],
      },
    });
    expect(await version()).toBe(before);
    await database.db.webhookCapabilities.update({
      where: { integrationKey: "north-psap" },
      data: { flags: [...MINIMAL_FLAGS, "incident.closed"] },
    });
    expect(await version()).toBe(before + 1n);
    await acceptDeclaration(database.db, ["north-psap"], MINIMAL_FLAGS, clock.now());
    expect(await version()).toBe(before + 2n);
  });

  it("plans what a fresh read would: the lanes as the last plan left them", async () => {
    // Every flag: appends go out as new locations only once a track was sent whole (the lane's fullTracks).
    await acceptDeclaration(database.db, ["north-psap"], V3_FLAGS, clock.now());
    try {
      const [remembered, fresh] = await Promise.all([newIncident(), newIncident()]);
      const steps = [
        (id: string) => addEnteredLocation({ ...on(id), point: { latitude: 1, longitude: 10 } }),
        (id: string) => addEnteredLocation({ ...on(id), point: { latitude: 2, longitude: 10 } }),
        (id: string) => text(id, "label", "between the appends"),
        (id: string) => addEnteredLocation({ ...on(id), point: { latitude: 3, longitude: 10 } }),
      ];
      for (const step of steps) {
        await step(remembered);
        batcherOf(database.db).recent.forget(fresh);
        await step(fresh);
      }
      const planned = async (id: string) =>
        (
          await database.db.webhookDelivery.findMany({
            where: { incidentId: id, integrationKey: "north-psap" },
            orderBy: { id: "asc" },
            select: { changeSeq: true, eventName: true, method: true, path: true, body: true },
          })
        ).map((d) => ({
          ...d,
          path: d.path.replace(id, "{id}"),
          body: JSON.stringify(d.body)
            .replaceAll(id, "{id}")
            .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "{time}"),
        }));
      const events = await planned(remembered);
      expect(events.map((e) => e.eventName)).toContain("trackAppended");
      expect(events).toEqual(await planned(fresh));
    } finally {
      await acceptDeclaration(database.db, ["north-psap"], MINIMAL_FLAGS, clock.now());
    }
  });
});
