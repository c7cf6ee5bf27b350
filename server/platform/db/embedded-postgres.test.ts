// The embedded server's lifecycle: a fresh cluster, a server left running by a
// killed run (reused, not corrupted), and a clean stop.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, usableSocketDir, type EmbeddedServer } from "./embedded-postgres.ts";

const started: EmbeddedServer[] = [];
let dataDir = "";
afterAll(async () => {
  for (const s of started) await s.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function select1(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query<{ one: number }>("SELECT 1 AS one");
  await c.end();
  return rows[0]?.one;
}

describe("embedded PostgreSQL", () => {
  it(
    "initialises, is reused when left running, and restarts after a clean stop with its data",
    { timeout: 60_000 },
    async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), "wb-embedded-"));
      const first = await startEmbeddedPostgres({ dataDir });
      started.push(first);
      expect(first.reused).toBe(false);
      expect(await select1(first.url())).toBe(1);
      const c = new pg.Client({ connectionString: first.url() });
      await c.connect();
      await c.query("CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)");
      await c.end();

      // A second start while the first server runs (as after `kill -9` of the workbench) reuses it.
      const second = await startEmbeddedPostgres({ dataDir });
      expect(second.reused).toBe(true);
      expect(second.port).toBe(first.port);
      expect(second.url()).toBe(first.url());

      await first.stop();
      await expect(select1(first.url())).rejects.toThrow();

      const third = await startEmbeddedPostgres({ dataDir });
      started.push(third);
      expect(third.reused).toBe(false);
      const d = new pg.Client({ connectionString: third.url() });
      await d.connect();
      expect((await d.query<{ v: number }>("SELECT v FROM kept")).rows).toEqual([{ v: 42 }]);
      await d.end();
    },
  );

  it("requires a password: the cluster is not open to anyone who can reach the port", { timeout: 60_000 }, async () => {
    const server = started.at(-1)!;
    await expect(select1(`postgresql://postgres:wrong@127.0.0.1:${server.port}/postgres`)).rejects.toThrow(/password/i);
  });

  it("is reached over its Unix socket (TCP on 127.0.0.1 stays open for other tools)", { timeout: 60_000 }, async () => {
    const server = started.at(-1)!;
    const url = new URL(server.url());
    expect(url.searchParams.get("host")).toMatch(/^\//);
    const over = async (connectionString: string) => {
      const c = new pg.Client({ connectionString });
      await c.connect();
      const { rows } = await c.query<{ addr: string | null }>("SELECT host(inet_client_addr()) AS addr");
      await c.end();
      return rows[0]?.addr;
    };
    expect(await over(server.url())).toBeNull(); // a Unix-socket connection has no client address
    url.search = "";
    expect(await over(url.toString())).toBe("127.0.0.1");
  });

  it(
    "creates WAL segments without zero-filling them, and keeps every durability setting on",
    { timeout: 60_000 },
    async () => {
      const c = new pg.Client({ connectionString: started.at(-1)!.url() });
      await c.connect();
      const setting = async (name: string) =>
        (await c.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = $1", [name])).rows[0]
          ?.setting;
      try {
        expect(await setting("wal_init_zero")).toBe("off");
        for (const name of ["fsync", "full_page_writes", "synchronous_commit"]) expect(await setting(name)).toBe("on");
      } finally {
        await c.end();
      }
    },
  );

  it("keeps to TCP where a socket path would be too long or need quoting", () => {
    expect(usableSocketDir("/tmp/wb/pg/data")).toBe("/tmp/wb/pg/data");
    expect(usableSocketDir(`/tmp/${"x".repeat(90)}/pg/data`)).toBeNull();
    expect(usableSocketDir("/tmp/it's here/pg/data")).toBeNull();
  });
});
