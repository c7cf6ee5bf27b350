// Several processes share one database; each must see the same workbench time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { createDbClient } from "../db/client.ts";
import { WorkbenchClock } from "./clock.ts";
import { saveClockOffset, syncClockFromDatabase, loadClockOffset } from "./persisted-clock.ts";
import { advanceClock, resetClock } from "../../workbench/clock-control.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

function nextChange(clock: WorkbenchClock) {
  return new Promise<number>((resolve) => clock.once("changed", resolve));
}

describe("persisted workbench clock", () => {
  it("an advance in one process reaches another through NOTIFY, and survives restarts", async () => {
    const dbA = t.db;
    const dbB = createDbClient(t.url, { poolSize: 2 });
    const a = new WorkbenchClock();
    const b = new WorkbenchClock();
    const stopA = await syncClockFromDatabase({ databaseUrl: t.url, db: dbA, clock: a });
    const stopB = await syncClockFromDatabase({ databaseUrl: t.url, db: dbB, clock: b });
    try {
      const seenByB = nextChange(b);
      await advanceClock({ db: dbA, clock: a, byMs: 61 * 60_000 });
      expect(a.offsetMs).toBe(3_660_000);
      expect(await seenByB).toBe(3_660_000);
      expect(Math.abs(b.nowMs() - a.nowMs())).toBeLessThan(1_000);

      // A process started later reads the stored offset.
      const c = new WorkbenchClock();
      const stopC = await syncClockFromDatabase({ databaseUrl: t.url, db: dbB, clock: c });
      expect(c.offsetMs).toBe(3_660_000);
      await stopC();

      const resetSeen = nextChange(b);
      await resetClock({ db: dbA, clock: a });
      expect(await resetSeen).toBe(0);
      expect(await loadClockOffset(dbA)).toBe(0);
    } finally {
      await stopA();
      await stopB();
      await dbB.$disconnect();
    }
  });

  it("after its LISTEN backend is terminated, a process reconnects and hears the next move at once (not at the 5 s resync)", async () => {
    const dbB = createDbClient(t.url, { poolSize: 2 });
    const a = new WorkbenchClock();
    const b = new WorkbenchClock();
    const stopB = await syncClockFromDatabase({ databaseUrl: t.url, db: dbB, clock: b });
    const listeners = async () =>
      (
        await t.db.$queryRaw<Array<{ pid: number }>>`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'workbench listen workbench_clock'`
      ).map((r) => r.pid);
    try {
      const [pid] = await listeners();
      expect(pid).toBeDefined();
      await t.db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
      // Back within a second (backoff from 100 ms), not at the next 5 s resync.
      const deadline = Date.now() + 1_000;
      while (!(await listeners()).some((p) => p !== pid)) {
        if (Date.now() > deadline) throw new Error("the clock's listener did not come back within a second");
        await new Promise((r) => setTimeout(r, 25));
      }
      const started = Date.now();
      const seenByB = nextChange(b);
      await advanceClock({ db: t.db, clock: a, byMs: 60_000 });
      await seenByB;
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(b.offsetMs).toBe(a.offsetMs);
    } finally {
      await stopB();
      await dbB.$disconnect();
      await resetClock({ db: t.db, clock: a });
    }
  });

  it("concurrent advances from two processes add up: none overwrites another (offset = offset + delta in SQL)", async () => {
    const dbB = createDbClient(t.url, { poolSize: 4 });
    const a = new WorkbenchClock();
    const b = new WorkbenchClock();
    const stopA = await syncClockFromDatabase({ databaseUrl: t.url, db: t.db, clock: a });
    const stopB = await syncClockFromDatabase({ databaseUrl: t.url, db: dbB, clock: b });
    try {
      const base = await loadClockOffset(t.db);
      await Promise.all(
        Array.from({ length: 10 }, (_, k) => [
          advanceClock({ db: t.db, clock: a, byMs: 1_000 + k }),
          advanceClock({ db: dbB, clock: b, byMs: 60_000 }),
        ]).flat(),
      );
      const expected = base + 10 * 1_000 + 45 + 10 * 60_000;
      expect(await loadClockOffset(t.db)).toBe(expected);
      // Each process ends on the newest move, whichever order the notifications and answers came in.
      for (const clock of [a, b]) {
        const deadline = Date.now() + 2_000;
        while (clock.offsetMs !== expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(clock.offsetMs).toBe(expected);
      }
    } finally {
      await stopA();
      await stopB();
      await dbB.$disconnect();
      await resetClock({ db: t.db, clock: a });
    }
  });

  it("a periodic re-read that answers after a newer move never puts the older offset back", async () => {
    const dbB = createDbClient(t.url, { poolSize: 2 });
    // Process B's re-reads read the row at once but answer 300 ms later: a slow round trip.
    const slow = new Proxy(dbB, {
      get(target, prop, receiver) {
        if (prop !== "workbenchClock") return Reflect.get(target, prop, receiver) as unknown;
        return {
          findUnique: async (args: never) => {
            const row = await target.workbenchClock.findUnique(args);
            await new Promise((r) => setTimeout(r, 300));
            return row;
          },
        };
      },
    });
    const a = new WorkbenchClock();
    const b = new WorkbenchClock();
    const seen: number[] = [];
    const stopB = await syncClockFromDatabase({ databaseUrl: t.url, db: slow, clock: b, resyncEveryMs: 50 });
    b.on("changed", (o) => seen.push(o));
    try {
      const before = b.offsetMs;
      await new Promise((r) => setTimeout(r, 120)); // re-reads of the old offset are in flight
      await advanceClock({ db: t.db, clock: a, byMs: 90_000 });
      await new Promise((r) => setTimeout(r, 800)); // they answer after B heard the move
      expect(b.offsetMs).toBe(before + 90_000);
      expect(seen).toEqual([before + 90_000]);
    } finally {
      await stopB();
      await dbB.$disconnect();
      await resetClock({ db: t.db, clock: a });
    }
  });

  it("only moves forward, at most a week per jump", async () => {
    const clock = new WorkbenchClock();
    await expect(advanceClock({ db: t.db, clock, byMs: -1 })).rejects.toMatchObject({ code: "ValidationFailed" });
    await expect(advanceClock({ db: t.db, clock, byMs: 8 * 86_400_000 })).rejects.toMatchObject({
      code: "ValidationFailed",
    });
    await saveClockOffset(t.db, clock, 0);
  });
});
