// `npm run db:migrate:new -- <name> [--from <git-rev>]`: writes
// prisma/migrations/<timestamp>_<name>/migration.sql with the SQL that takes the
// schema.prisma committed at <git-rev> (default HEAD) to the working schema.prisma.
// Commit each schema change together with its migration.
//
// Why a datamodel-to-datamodel diff: with the JS schema engine (the only one that
// runs offline) `migrate diff --from-migrations` and `db pull` crash ("RuntimeError:
// unreachable") on Prisma 6.19. A diff between two datamodels works; it still needs
// a live database to connect to, so a throwaway embedded one is started.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../server/platform/db/embedded-postgres.ts";
import { ensureDatabase } from "../server/platform/db/open-database.ts";

const [name, flag, rev = "HEAD"] = process.argv.slice(2);
if (!name || !/^[a-z0-9_]+$/.test(name) || (flag !== undefined && flag !== "--from")) {
  console.error("usage: npm run db:migrate:new -- <name_in_snake_case> [--from <git-rev>]");
  process.exit(2);
}

const previous = path.join(os.tmpdir(), `wb-schema-${process.pid}.prisma`);
writeFileSync(previous, execFileSync("git", ["show", `${rev}:prisma/schema.prisma`], { encoding: "utf8" }));

const server = await startEmbeddedPostgres({
  dataDir: path.join(os.tmpdir(), `wb-migrate-${process.pid}`),
  ephemeral: true,
});
try {
  await ensureDatabase(server.url("postgres"), "scratch");
  const sql = execFileSync(
    "node_modules/.bin/prisma",
    [
      "migrate",
      "diff",
      "--from-schema-datamodel",
      previous,
      "--to-schema-datamodel",
      "prisma/schema.prisma",
      "--script",
    ],
    {
      env: { ...process.env, DATABASE_URL: server.url("scratch") },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  if (/empty migration/i.test(sql) || !sql.trim()) {
    console.log(`schema.prisma matches ${rev}: nothing to write.`);
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join("prisma/migrations", `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "migration.sql"), sql);
    console.log(`wrote ${dir}/migration.sql — read it before committing.`);
  }
} finally {
  await server.stop();
}
