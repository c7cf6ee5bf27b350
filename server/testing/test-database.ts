// A fresh database for one test file, cloned from the run's seeded template.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDbClient, type DbClient } from "../platform/db/client.ts";
import { withDatabase } from "../platform/db/open-database.ts";
import { sayIfSlow } from "./say-if-slow.ts";

export type TestDatabase = {
  url: string;
  name: string;
  db: DbClient;
  mode: "embedded" | "external";
  drop: () => Promise<void>;
};

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("testAdminUrl");
  const template = inject("testTemplateDatabase");
  const name = `wb_t_${template.slice("wb_template_".length)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const db = createDbClient(url, { poolSize: 10 });
  return {
    url,
    name,
    db,
    mode: inject("testDatabaseMode"),
    async drop() {
      // Ending the pool waits for every connection lent out to come back.
      await sayIfSlow(`the test database's pool to end (${name})`, db.$disconnect());
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await sayIfSlow(`DROP DATABASE ${name}`, c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      await c.end();
    },
  };
}
