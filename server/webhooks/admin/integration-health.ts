// Per-integration health as Svix and Hookdeck show it beside their endpoints: the success rate of
// the recent attempts, since when the receiver has been failing, and its last error. Read from the
// attempts of each integration's newest RECENT_DELIVERIES deliveries (one index range per
// integration on (integrationKey, id), then their attempts by (deliveryId, attempt)): bounded
// whatever the outbox holds, and no index on attempt time for the delivery path to maintain.
// The window is the last hour of the workbench clock (an event's whole retry window).
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import { attemptOutcome, DELIVERY_WINDOW_MS, isAccepted } from "./describe-delivery-status.ts";

export const RECENT_DELIVERIES = 100;

export type HealthAttempt = { at: string; status: number | null; error: string | null };
export type IntegrationHealth = {
  integration: string;
  /** Attempts in the window, and how many a 200 accepted. */
  attempts: number;
  accepted: number;
  /** accepted / attempts in percent, whole; null without attempts in the window. */
  successRate: number | null;
  /** The first failure after the last accepted attempt, when the newest attempt failed; else null. */
  failingSince: string | null;
  lastError: { at: string; outcome: string } | null;
  lastAttemptAt: string | null;
};

/** PURE: one integration's health from its recent attempts (any order) at `nowMs`. */
export function summarizeHealth(integration: string, attempts: HealthAttempt[], nowMs: number): IntegrationHealth {
  const sorted = [...attempts].sort((a, b) => Date.parse(b.at) - Date.parse(a.at)); // newest first
  const recent = sorted.filter((a) => nowMs - Date.parse(a.at) <= DELIVERY_WINDOW_MS);
  const accepted = recent.filter(isAccepted).length;
  const lastFailure = sorted.find((a) => !isAccepted(a));
  let failingSince: string | null = null;
  for (const a of sorted) {
    if (isAccepted(a)) break;
    failingSince = a.at;
  }
  return {
    integration,
    attempts: recent.length,
    accepted,
    successRate: recent.length ? Math.floor((100 * accepted) / recent.length) : null,
    failingSince,
    lastError: lastFailure ? { at: lastFailure.at, outcome: attemptOutcome(lastFailure) } : null,
    lastAttemptAt: sorted[0]?.at ?? null,
  };
}

export async function integrationHealth(options: { db: DbClient; now: Date }): Promise<IntegrationHealth[]> {
  const rows = await options.db.$queryRaw<
    Array<{ key: string; at: Date | null; status: number | null; error: string | null }>
  >(Prisma.sql`
    SELECT i.key, a."startedAt" AS at, a.status, a.error
    FROM "Integration" i
    LEFT JOIN LATERAL (
      SELECT d.id FROM "WebhookDelivery" d WHERE d."integrationKey" = i.key ORDER BY d.id DESC LIMIT ${RECENT_DELIVERIES}
    ) d ON true
    LEFT JOIN "WebhookAttempt" a ON a."deliveryId" = d.id
    ORDER BY i.key`);
  const byKey = new Map<string, HealthAttempt[]>();
  for (const r of rows) {
    const list = byKey.get(r.key) ?? [];
    if (r.at) list.push({ at: r.at.toISOString(), status: r.status, error: r.error });
    byKey.set(r.key, list);
  }
  return [...byKey].map(([key, attempts]) => summarizeHealth(key, attempts, options.now.getTime()));
}
