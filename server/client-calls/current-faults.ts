// The faults a process applies (client-faults.ts), read from the database at most once a second:
// every process on one database applies the same faults, and a call pays no read in between. A
// process that sets or clears a fault forgets its copy at once.
import type { DbClient } from "../platform/db/client.ts";
import type { Clock } from "../platform/clock/clock.ts";
import { listClientFaults, type ClientFault } from "./client-faults.ts";

const FRESH_MS = 1_000;
type Copy = { faults: ClientFault[]; readAtMs: number; reading?: Promise<ClientFault[]> };
const copies = new WeakMap<DbClient, Copy>();

export async function currentClientFaults(deps: { db: DbClient; clock: Clock }): Promise<ClientFault[]> {
  const nowMs = deps.clock.nowMs();
  let copy = copies.get(deps.db);
  if (copy && nowMs >= copy.readAtMs && nowMs - copy.readAtMs < FRESH_MS) return copy.faults;
  if (copy?.reading) return copy.reading;
  copy ??= { faults: [], readAtMs: -Infinity };
  copies.set(deps.db, copy);
  const reading = listClientFaults(deps).then(
    (faults) => {
      copy.faults = faults;
      copy.readAtMs = nowMs;
      copy.reading = undefined;
      return faults;
    },
    () => {
      // The database is out of reach: no fault is applied (the platform answers the outage itself).
      copy.reading = undefined;
      return copy.faults;
    },
  );
  copy.reading = reading;
  return reading;
}

export function forgetClientFaults(db: DbClient): void {
  copies.delete(db);
}
