// Every client seen in a window with its verdict (the API calls page's panel).
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import type { ClientVerdict } from "./advice/advise-calls.ts";
import { clientReport } from "./list-calls.ts";

const WINDOWS = { "15m": 15 * 60_000, "1h": 3_600_000, "6h": 6 * 3_600_000, "24h": 86_400_000 } as const;

export async function clientVerdicts(deps: {
  db: DbClient;
  clock: Clock;
  within: keyof typeof WINDOWS;
}): Promise<ClientVerdict[]> {
  const sinceMs = deps.clock.nowMs() - WINDOWS[deps.within];
  const seen = await deps.db.clientCall.groupBy({
    by: ["clientId"],
    where: { receivedAt: { gte: new Date(sinceMs) }, clientId: { not: null } },
    _count: { _all: true },
    orderBy: { clientId: "asc" },
    take: 50,
  });
  const reports = await Promise.all(
    seen.map((s) => clientReport({ db: deps.db, clock: deps.clock, clientId: s.clientId!, sinceMs })),
  );
  return reports.map(({ clientId, calls, errors, warnings, verdict, rules }) => ({
    clientId,
    calls,
    errors,
    warnings,
    verdict,
    rules,
  }));
}
