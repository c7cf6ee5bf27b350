// Vitest global setup for the integration projects: one PostgreSQL server per
// run (the embedded one, or TEST_DATABASE_URL's), a template database migrated
// and seeded once, and each test file then clones it (CREATE DATABASE ...
// TEMPLATE ..., ~30 ms) so files never see each other's data.
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { seedDatabase } from "../../prisma/seed.ts";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import { applyMigrations } from "../platform/db/apply-migrations.ts";
import { createDbClient } from "../platform/db/client.ts";
import { startEmbeddedPostgres } from "../platform/db/embedded-postgres.ts";
import { withDatabase } from "../platform/db/open-database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection URL of a maintenance database on the test server (for CREATE/DROP DATABASE). */
    testAdminUrl: string;
    /** The migrated and seeded template each test file clones. */
    testTemplateDatabase: string;
    testDatabaseMode: "embedded" | "external";
  }
}

async function prepareTemplate(adminUrl: string, template: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${template}"`);
  await admin.end();
  const url = withDatabase(adminUrl, template);
  await applyMigrations(url);
  const db = createDbClient(url, { poolSize: 2 });
  await seedDatabase({ db, clock: new WorkbenchClock(), publicUrl: "http://localhost:3000" });
  await db.$disconnect();
}

async function dropDatabases(adminUrl: string, prefix: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
    `${prefix}%`,
  ]);
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  await admin.end();
}

export default async function setup(project: TestProject) {
  const external = project.name === "external";
  const runId = randomBytes(4).toString("hex");
  const template = `wb_template_${runId}`;
  let adminUrl: string;
  let stopServer = async () => {};

  if (external) {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("The external project needs TEST_DATABASE_URL.");
    adminUrl = url;
  } else {
    const server = await startEmbeddedPostgres({
      dataDir: path.join(os.tmpdir(), `wb-test-${runId}`),
      ephemeral: true,
    });
    adminUrl = server.url("postgres");
    stopServer = server.stop;
  }

  await prepareTemplate(adminUrl, template);
  project.provide("testAdminUrl", adminUrl);
  project.provide("testTemplateDatabase", template);
  project.provide("testDatabaseMode", external ? "external" : "embedded");

  return async () => {
    await dropDatabases(adminUrl, `wb_t_${runId}`).catch(() => {});
    await dropDatabases(adminUrl, template).catch(() => {});
    await stopServer();
  };
}
