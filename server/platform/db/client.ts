// The one database driver: Prisma 6 (query compiler, no engine binary) over
// @prisma/adapter-pg, for the embedded server and any external PostgreSQL alike.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";

export type DbClient = PrismaClient;
export { Prisma } from "./generated/client.ts";

export function createDbClient(databaseUrl: string, options: { poolSize?: number } = {}): DbClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.poolSize ?? 20 });
  return new PrismaClient({ adapter });
}
