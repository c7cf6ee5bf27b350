// The signing keys as the Admin page shows them: which is current, which are
// superseded but still published (until retireAfter), which have retired.
import type { Runtime } from "../runtime.ts";

export async function listSigningKeys(deps: Pick<Runtime, "db" | "clock">) {
  const now = deps.clock.now();
  const rows = await deps.db.signingKey.findMany({
    orderBy: { createdAt: "desc" },
    select: { kid: true, createdAt: true, supersededAt: true, retireAfter: true },
  });
  return rows.map((r) => ({
    ...r,
    state:
      r.supersededAt === null
        ? ("current" as const)
        : r.retireAfter && r.retireAfter <= now
          ? ("retired" as const)
          : ("published" as const),
  }));
}
