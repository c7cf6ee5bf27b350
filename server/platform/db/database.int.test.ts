// Migrations, seed and reset against a real PostgreSQL (embedded, and the
// external server when TEST_DATABASE_URL is set).
import { readFile, mkdtemp, cp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AGENCY, SEED_CLIENTS, USER, resetToSeed } from "../../../prisma/seed.ts";
import { WorkbenchClock } from "../clock/clock.ts";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { applyMigrations, MIGRATIONS_DIR } from "./apply-migrations.ts";
import { verifyClientSecret } from "../../identity/client-secret.ts";
import { isDatabaseUnavailable } from "./database-unavailable.ts";
import { sqlPool } from "./sql-transaction.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe("migrations", () => {
  it("are recorded in Prisma's table and not applied twice", async () => {
    const again = await applyMigrations(t.url);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toBeGreaterThan(0);
    const rows = await t.db.$queryRaw<
      Array<{ migration_name: string; checksum: string }>
    >`SELECT migration_name, checksum FROM "_prisma_migrations"`;
    const first = rows.find((r) => r.migration_name === "20261122000000_foundation");
    const sql = await readFile(path.join(MIGRATIONS_DIR, "20261122000000_foundation", "migration.sql"));
    const { createHash } = await import("node:crypto");
    expect(first?.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
  });

  it("compress snapshots with lz4 where the server has it, and still succeed where it does not (embedded)", async () => {
    // Whether this server was built with lz4: a probe on a temporary table, inside a transaction rolled back.
    const hasLz4 = await t.db
      .$transaction(async (tx) => {
        try {
          await tx.$executeRawUnsafe(`CREATE TEMP TABLE lz4_probe (j jsonb COMPRESSION lz4)`);
          return true;
        } catch {
          return false;
        }
      })
      .catch(() => false);
    const rows = await t.db.$queryRaw<Array<{ rel: string; compression: string }>>`
      SELECT attrelid::regclass::text AS rel, attcompression::text AS compression FROM pg_attribute
      WHERE attname = 'snapshot' AND attrelid IN ('"Incident"'::regclass, '"IncidentChange"'::regclass, '"ReceiverIncident"'::regclass)
      ORDER BY 1`;
    expect(rows.map((r) => r.rel)).toEqual(['"Incident"', '"IncidentChange"', '"ReceiverIncident"']);
    // attcompression: 'l' = lz4; '' = the server default (pglz).
    for (const r of rows) expect(r.compression).toBe(hasLz4 ? "l" : "");
  });

  it("refuse to run when an applied migration was edited", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "wb-mig-"));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    await writeFile(path.join(dir, "20261122000000_foundation", "migration.sql"), "-- edited\n");
    await expect(applyMigrations(t.url, dir)).rejects.toThrow(/edited after it was applied/);
  });
});

describe("seed", () => {
  it("holds the fixed ids of workbench-decisions.md", async () => {
    const agencies = await t.db.agency.findMany({ orderBy: { id: "asc" } });
    expect(agencies.map((a) => [a.id, a.displayName, a.type])).toEqual([
      [AGENCY.northPsap, "North PSAP", "Psap"],
      [AGENCY.centralEms, "Central EMS", "Ems"],
      [AGENCY.fireRescue, "Fire and Rescue", "Fire"],
      [AGENCY.southPsap, "South PSAP", "Psap"],
    ]);
    const related = await t.db.agencyRelation.findMany({ where: { fromId: AGENCY.northPsap } });
    expect(related.map((r) => r.toId).sort()).toEqual([AGENCY.centralEms, AGENCY.fireRescue]);
    expect(
      await t.db.agencyRelation.count({ where: { OR: [{ fromId: AGENCY.southPsap }, { toId: AGENCY.southPsap }] } }),
    ).toBe(0);

    const cad = await t.db.client.findUniqueOrThrow({ where: { id: "partner-cad" }, include: { agencies: true } });
    expect(await verifyClientSecret(SEED_CLIENTS.partnerCad.secret, cad.secretHash!)).toBe(true);
    expect(cad.scopes).toEqual(
      expect.arrayContaining([
        "username.required",
        "identity.user.signin",
        "incident.close",
        "incident.caller.live-video",
      ]),
    );
    expect(cad.agencies.map((a) => a.agencyId).sort()).toEqual([
      AGENCY.northPsap,
      AGENCY.centralEms,
      AGENCY.fireRescue,
    ]);

    const smiths = await t.db.user.findMany({ where: { username: { equals: "j.smith", mode: "insensitive" } } });
    expect(smiths.map((u) => u.id).sort()).toEqual([USER.jSmithLower, USER.jSmithUpper]);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: USER.lockedUser } })).canSignIn).toBe(false);

    const integrations = await t.db.integration.findMany({ orderBy: { key: "asc" } });
    expect(integrations.map((i) => [i.key, i.receiverUrl])).toEqual([
      ["central-ems", "/receivers/central-ems"],
      ["fire-rescue", "/receivers/fire-rescue"],
      ["north-psap", "/receivers/north-psap"],
    ]);
    // No configured contract version (Versioning rule 3): fire-rescue is v2 because its embedded receiver declares 2.0.
    const fire = await t.db.receiverCapabilities.findUniqueOrThrow({ where: { integrationKey: "fire-rescue" } });
    expect((fire.declaration as { version: string }).version).toBe("2.0");
  });

  it("reset puts changed and added data back to the seed", async () => {
    await t.db.user.delete({ where: { id: USER.dispatcherNorth } });
    await t.db.agency.update({ where: { id: AGENCY.southPsap }, data: { displayName: "Renamed" } });
    await t.db.client.create({
      data: { id: "extra", displayName: "Extra", scopes: [], grantTypes: [], redirectUris: [], createdAt: new Date(0) },
    });
    await resetToSeed({ db: t.db, clock: new WorkbenchClock(), publicUrl: "http://localhost:3000" });
    expect(await t.db.user.findUnique({ where: { id: USER.dispatcherNorth } })).not.toBeNull();
    expect((await t.db.agency.findUniqueOrThrow({ where: { id: AGENCY.southPsap } })).displayName).toBe("South PSAP");
    expect(await t.db.client.findUnique({ where: { id: "extra" } })).toBeNull();
  });
});

describe("the pool's connections", () => {
  it("survive their backend's end while lent out: no unhandled 'error', the next statement fails as an outage", async () => {
    const pool = sqlPool(t.db);
    const lent = await pool.connect();
    const [{ pid }] = (await lent.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows as [{ pid: number }];
    // pg-pool takes its own error listener off a connection it lends: ours must be there instead.
    expect(lent.listenerCount("error")).toBeGreaterThan(0);
    // Ended from another connection while this one is idle in the caller's hands: the server sends
    // FATAL 57P01 with no query to fail, so pg emits it as the connection's 'error' event. Without a
    // listener, that is an uncaught exception that ends the process (and fails this run).
    let ended = false;
    lent.once("end", () => (ended = true));
    await t.db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
    await vi.waitFor(() => expect(ended).toBe(true), { timeout: 5_000 });
    const next = await lent.query("SELECT 1").then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(next)).toBe(true);
    lent.release(next as Error);
    expect((await t.db.$queryRaw<Array<{ one: number }>>`SELECT 1 AS one`)[0]?.one).toBe(1);
  });
});
