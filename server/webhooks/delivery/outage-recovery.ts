// The delivery worker through a database outage (docs/decisions/0055): its failures are noted once
// per outage and spaced by backoff (outage-log.ts), and when the database answers again it gives
// back at once, instead of after their lease, the claims the outage left it holding:
// - attempts whose record failed, and heads it could not give back (`strand`);
// - claims committed whose answer never came: a planning write's idle-lane claim (0030) or a
//   record's successor claims (0042) on a connection cut after COMMIT. The worker does not know
//   them; they are its rows, `delivering`, claimed before the outage was seen, on lanes it holds
//   nothing of.
// Given back, each is claimed again as its lane's head with its Service-Request-Id (a receiver that
// had it already answers as for a duplicate): order per lane holds, as after a lease.
import type { Logger } from "pino";
import type { DbClient } from "../../platform/db/client.ts";
import { isDatabaseUnavailable } from "../../platform/db/database-unavailable.ts";
import { createOutageLog } from "../../platform/db/outage-log.ts";
import type { WorkbenchClock } from "../../platform/clock/clock.ts";
import { findOwnClaims } from "./claim-deliveries.ts";
import { laneKey } from "../outbox/outbox-row.ts";

export type OutageRecovery = {
  /** A step failed: noted (once per outage); returns the delay before the next try. */
  failed: (err: unknown, message: string, fields?: Record<string, unknown>) => number;
  /** Claims to give back once the database answers. */
  strand: (ids: bigint[]) => void;
  /** The database answered: ends an outage and gives back what it left this worker holding. */
  answered: () => void;
};

export function createOutageRecovery(o: {
  db: DbClient;
  clock: WorkbenchClock;
  workerId: string;
  log: Logger;
  /** Whether this worker holds anything of a lane (lanes.ts). */
  holdsLane: (key: string) => boolean;
  release: (ids: bigint[]) => Promise<unknown>;
  wake: () => void;
  stopped: () => boolean;
}): OutageRecovery {
  const outage = createOutageLog(o.log, "delivery worker");
  let stranded: bigint[] = [];
  let seenAt: Date | undefined;
  let recovering = false;

  async function recover(claimedBefore: Date) {
    const ids = stranded;
    stranded = [];
    const own = await findOwnClaims(o.db, { workerId: o.workerId, claimedBefore });
    const orphaned = own.filter((r) => !o.holdsLane(laneKey(r))).map((r) => r.id);
    const all = [...new Set([...ids, ...orphaned])];
    if (all.length) {
      await o.release(all);
      o.log.info({ released: all.length }, "delivery worker: claims the outage left were given back");
    }
  }

  return {
    failed(err, message, fields) {
      if (isDatabaseUnavailable(err)) seenAt ??= o.clock.now();
      return outage.failed(err, message, fields);
    },
    strand(ids) {
      stranded.push(...ids);
    },
    answered() {
      outage.succeeded();
      if (!seenAt || recovering || o.stopped()) return;
      const claimedBefore = seenAt;
      seenAt = undefined;
      recovering = true;
      recover(claimedBefore)
        .catch((err: unknown) => {
          // Still failing: the next answer tries again; the leases free them meanwhile.
          seenAt ??= claimedBefore;
          outage.failed(err, "giving back claims after an outage failed");
        })
        .finally(() => {
          recovering = false;
          o.wake();
        });
    },
  };
}
