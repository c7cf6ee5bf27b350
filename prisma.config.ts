// Prisma CLI configuration (migrate, generate). The CLI talks to PostgreSQL
// through @prisma/adapter-pg and the JS schema engine, because the classic
// engine would be downloaded at run time and this network reaches only npm.
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { CatalogTypesAsTextClient } from "./server/platform/db/prisma-catalog-types-shim";

// `prisma generate` needs no database; a placeholder keeps env("DATABASE_URL") resolvable.
process.env.DATABASE_URL ??= "postgresql://unused@127.0.0.1:1/unused";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL, Client: CatalogTypesAsTextClient });
  },
});
