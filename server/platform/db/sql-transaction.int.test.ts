// inSqlTransaction on a real PostgreSQL: BEGIN pipelined with the first
// statement and COMMIT with the finishing one, and the rollback rules that
// pipelining must not bend.
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { Prisma } from "./client.ts";
import { inSqlTransaction, sqlPool, sqlQuery } from "./sql-transaction.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.$executeRawUnsafe(`CREATE TABLE tx_probe (id int PRIMARY KEY, note text NOT NULL)`);
});
afterAll(async () => {
  await t.drop();
});
beforeEach(async () => {
  await t.db.$executeRawUnsafe(`TRUNCATE tx_probe`);
});

const insert = (id: number, note = "n") =>
  Prisma.sql`INSERT INTO tx_probe (id, note) VALUES (${id}, ${note}) RETURNING id, note`;
const notes = async () =>
  (await sqlQuery<{ id: number; note: string }>(t.db, Prisma.sql`SELECT id, note FROM tx_probe ORDER BY id`)).map(
    (r) => `${r.id}:${r.note}`,
  );

/** Counts the socket writes of the pool connection the next transaction takes. */
function countSocketWrites(): { writes: () => number } {
  let writes = 0;
  sqlPool(t.db).once("acquire", (client: pg.PoolClient) => {
    const socket = (
      client as unknown as {
        connection: { stream: { _write: (...a: unknown[]) => void; _writev?: (...a: unknown[]) => void } };
      }
    ).connection.stream;
    const write = socket._write.bind(socket);
    const writev = socket._writev?.bind(socket);
    socket._write = (...a) => {
      writes++;
      write(...a);
    };
    if (writev)
      socket._writev = (...a) => {
        writes++;
        writev(...a);
      };
  });
  return { writes: () => writes };
}

describe("inSqlTransaction", () => {
  it("sends BEGIN with the first statement and COMMIT with the finishing one: two socket writes for four statements", async () => {
    const probe = countSocketWrites();
    let finished: unknown[] = [];
    const txids = await inSqlTransaction(t.db, async (tx) => {
      const [a] = await tx.query<{ txid: string }>(Prisma.sql`SELECT txid_current()::text AS txid`);
      tx.finish<{ id: number; txid: string }>(
        Prisma.sql`INSERT INTO tx_probe (id, note) VALUES (1, txid_current()::text) RETURNING id, note AS txid`,
        (rows) => {
          finished = rows;
        },
      );
      return a!.txid;
    });
    expect(probe.writes()).toBe(2);
    expect(finished).toEqual([{ id: 1, txid: txids }]); // one transaction: the first statement and the finishing one share its id
    expect(await notes()).toEqual([`1:${txids}`]);
  });

  it("runs the finishing statement's callback and afterCommit callbacks only after the commit, in that order", async () => {
    const order: string[] = [];
    await inSqlTransaction(t.db, async (tx) => {
      await tx.execute(insert(1));
      tx.afterCommit(() => order.push("afterCommit"));
      tx.finish(insert(2), () => order.push("finish"));
      order.push("fn returned");
    });
    expect(order).toEqual(["fn returned", "finish", "afterCommit"]);
    expect(await notes()).toEqual(["1:n", "2:n"]);
  });

  it("a failing finishing statement rolls the whole transaction back and throws its error; no callback runs; the pool stays usable", async () => {
    await sqlQuery(t.db, insert(5, "before"));
    const called: string[] = [];
    const error = await inSqlTransaction(t.db, async (tx) => {
      await tx.execute(insert(1));
      tx.afterCommit(() => called.push("afterCommit"));
      tx.finish(insert(5, "duplicate"), () => called.push("finish"));
    }).catch((e: Error & { code?: string }) => e);
    expect((error as { code?: string }).code).toBe("23505");
    expect(called).toEqual([]);
    expect(await notes()).toEqual(["5:before"]);
    // Every connection of the pool is still clean (not left inside the aborted transaction).
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => inSqlTransaction(t.db, async (tx) => tx.finish(insert(100 + i), () => {}))),
    );
    expect((await notes()).length).toBe(13);
  });

  it("a throw in the function rolls back what it wrote", async () => {
    const error = await inSqlTransaction(t.db, async (tx) => {
      await tx.execute(insert(1));
      throw new Error("refused");
    }).catch((e: Error) => e);
    expect(error).toEqual(new Error("refused"));
    expect(await notes()).toEqual([]);
  });

  it("a failing statement inside the function rolls back, and the function sees its error", async () => {
    await sqlQuery(t.db, insert(1, "before"));
    const error = await inSqlTransaction(t.db, async (tx) => {
      await tx.execute(insert(2));
      await tx.execute(insert(1, "duplicate"));
    }).catch((e: Error & { code?: string }) => e);
    expect((error as { code?: string }).code).toBe("23505");
    expect(await notes()).toEqual(["1:before"]);
  });

  it("refuses a statement after the finishing one, and rolls back", async () => {
    const error = await inSqlTransaction(t.db, async (tx) => {
      tx.finish(insert(1), () => {});
      await tx.query(insert(2));
    }).catch((e: Error) => e);
    expect(String(error)).toMatch(/after the transaction's finishing statement/);
    expect(await notes()).toEqual([]);
  });

  it("commits a function that ran no statement at all", async () => {
    await expect(inSqlTransaction(t.db, async () => "nothing")).resolves.toBe("nothing");
  });
});
