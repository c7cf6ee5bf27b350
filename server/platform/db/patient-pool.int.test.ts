// A wait that times out is an outage only when the pool made no progress meanwhile (patient-pool.ts).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { isDatabaseUnavailable } from "./database-unavailable.ts";
import { PatientPool } from "./patient-pool.ts";

let t: TestDatabase;
const pools: PatientPool[] = [];
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await t.drop();
});

const onePool = (busyWaitMaxMs?: number, connectionString = t.url) => {
  const pool = new PatientPool({ connectionString, max: 1, connectionTimeoutMillis: 300, busyWaitMaxMs });
  pool.on("error", () => {});
  pools.push(pool);
  return pool;
};

/** The pool's one connection, lent out; tried again while a loaded machine opens it slower than 300 ms. */
async function lendTheConnection(pool: PatientPool) {
  for (let tries = 1; ; tries++) {
    try {
      return await pool.connect();
    } catch (err) {
      if (tries >= 30) throw err;
    }
  }
}

/** Connections that get no answer, as from a hung server: pg's new-connection timeout fires. */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/none`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe("PatientPool", () => {
  it("a busy pool keeps its waiters: ten 100 ms queries on one connection all answer", async () => {
    const pool = onePool();
    (await lendTheConnection(pool)).release(); // the connection exists before the queue forms
    const started = performance.now();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => pool.query("SELECT pg_sleep(0.1), $1::int AS i", [i])),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill("fulfilled"));
    // The last waited about a second, over three times the connect timeout.
    expect(performance.now() - started).toBeGreaterThan(900);
  });

  it("a stuck pool fails its waiter after the connect timeout, as an outage", async () => {
    const pool = onePool();
    const held = await lendTheConnection(pool); // never given back, as on a hung server
    try {
      const started = performance.now();
      const error = await pool.query("SELECT 1").then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      held.release();
    }
  });

  it("a busy pool's wait ends at its bound, as an outage", async () => {
    const pool = onePool(1_000);
    const held = await lendTheConnection(pool);
    // Connections seen coming back healthy every 100 ms, yet never the one this waiter needs.
    const progress = setInterval(() => pool.emit("release", undefined, held), 100);
    try {
      const started = performance.now();
      const error = await new Promise<Error | undefined>((resolve) =>
        pool.connect((err, client) => {
          client?.release();
          resolve(err);
        }),
      );
      const waited = performance.now() - started;
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(waited).toBeGreaterThanOrEqual(1_000); // waited again past the 300 ms timeout
      expect(waited).toBeLessThan(2_500);
    } finally {
      clearInterval(progress);
      held.release();
    }
  });

  it("a new connection the server does not open is an outage after the timeout, unless the pool progressed", async () => {
    const silent = await silentServer();
    try {
      const stuck = onePool(1_000, silent.url);
      let started = performance.now();
      const first = await stuck.connect().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(String(first)).toMatch(/connection timeout/);
      expect(isDatabaseUnavailable(first)).toBe(true);
      expect(performance.now() - started).toBeLessThan(1_000); // one timeout, no second wait

      const progressing = onePool(1_000, silent.url);
      const progress = setInterval(() => progressing.emit("release", undefined), 100);
      try {
        started = performance.now();
        const second = await progressing.connect().then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(isDatabaseUnavailable(second)).toBe(true);
        expect(performance.now() - started).toBeGreaterThanOrEqual(1_000); // waited again, to the bound
      } finally {
        clearInterval(progress);
      }
    } finally {
      silent.close();
    }
  });
});
