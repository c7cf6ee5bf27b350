// The workbench's own health (not a receiver's /health): the process is up and its database answers.
import { getRuntime } from "@/server/runtime";

export const dynamic = "force-dynamic";

export async function GET() {
  const { db, clock, databaseMode } = getRuntime();
  try {
    await db.$queryRaw`SELECT 1`;
    return Response.json({ status: "ok", database: databaseMode, now: clock.now().toISOString() });
  } catch {
    return Response.json(
      { status: "unavailable", database: databaseMode, reason: "database unreachable" },
      { status: 503 },
    );
  }
}
