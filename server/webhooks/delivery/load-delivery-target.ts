// Where and whether a lane's events can go now: the integration's receiver URL
// ("listen:KEY" while a listener is attached: decision 0052) and insecure-dev mark, whether its /about declaration is accepted (and of
// which major version), and the dispatcher-side network fault set for it (if
// any), in one statement.
// Cached for a second per worker: a burst would otherwise read the same rows
// for every event (the fault row alone was one round trip per delivery).
// Discovery, `integrations set` and a fault set in this process clear it at
// once; a change made by another process applies within the second. The fault's
// window (startsAt/endsAt) is judged at each use, on the workbench clock.
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import { sqlQuery } from "../../platform/db/sql-transaction.ts";
import type { StoredFault } from "../../directory/integration-faults.ts";
import { webhookEvents } from "../webhook-events.ts";
import { LISTENER_URL_PREFIX } from "../listen/listener-attachments.ts";

export type DeliveryTarget = {
  key: string;
  receiverUrl: string;
  insecureDev: boolean;
  accepted: boolean;
  /** The accepted declaration's major version: the one contract the integration is sent (Versioning rule 3). */
  majorVersion: number | null;
  /** Rows up to this id were planned for an earlier receiver URL (decision 0062); null: never moved. */
  movedAfterDeliveryId: bigint | null;
  nextCheckAt: Date | null;
  dispatcherFault: StoredFault | null;
};

const TTL_MS = 1_000;

type Row = {
  key: string;
  receiverUrl: string;
  insecureDev: boolean;
  status: string | null;
  majorVersion: number | null;
  nextCheckAt: Date | null;
  movedAfterDeliveryId: string | null;
  faultMode: string | null;
  faultStartsAt: Date | null;
  faultEndsAt: Date | null;
};

export function createDeliveryTargetLoader(db: DbClient, elapsedMs: () => number = () => performance.now()) {
  const cache = new Map<string, { at: number; value: Promise<DeliveryTarget | null> }>();
  const clear = () => cache.clear();
  const events = webhookEvents();
  events.on("integration:discovered", clear);
  events.on("dispatcher:fault-changed", clear);
  return {
    load(key: string): Promise<DeliveryTarget | null> {
      const hit = cache.get(key);
      if (hit && elapsedMs() - hit.at < TTL_MS) return hit.value;
      const value = (async () => {
        const [r] = await sqlQuery<Row>(
          db,
          Prisma.sql`
          SELECT i.key, CASE WHEN l."integrationKey" IS NULL THEN i."receiverUrl"
                             ELSE ${LISTENER_URL_PREFIX}::text || i.key END AS "receiverUrl",
                 i."insecureDev", i."movedAfterDeliveryId"::text AS "movedAfterDeliveryId", c.status, c."majorVersion", c."nextCheckAt",
                 f.mode AS "faultMode", f."startsAt" AS "faultStartsAt", f."endsAt" AS "faultEndsAt"
          FROM "Integration" i
          LEFT JOIN "WebhookCapabilities" c ON c."integrationKey" = i.key
          LEFT JOIN "IntegrationFault" f ON f."integrationKey" = i.key AND f.side = 'dispatcher'
          LEFT JOIN "IntegrationListener" l ON l."integrationKey" = i.key
          WHERE i.key = ${key}`,
        );
        if (!r) return null;
        return {
          key,
          receiverUrl: r.receiverUrl,
          insecureDev: r.insecureDev,
          accepted: r.status === "active",
          majorVersion: r.majorVersion,
          movedAfterDeliveryId: r.movedAfterDeliveryId === null ? null : BigInt(r.movedAfterDeliveryId),
          nextCheckAt: r.nextCheckAt,
          dispatcherFault:
            r.faultMode === null ? null : { mode: r.faultMode, startsAt: r.faultStartsAt, endsAt: r.faultEndsAt },
        };
      })();
      cache.set(key, { at: elapsedMs(), value });
      value.catch(() => cache.delete(key));
      return value;
    },
    clear,
    close: () => {
      events.off("integration:discovered", clear);
      events.off("dispatcher:fault-changed", clear);
    },
  };
}
export type DeliveryTargetLoader = ReturnType<typeof createDeliveryTargetLoader>;
