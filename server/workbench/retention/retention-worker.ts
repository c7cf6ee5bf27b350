// The retention pruner as a background worker (server/workers.ts): a run every INTERVAL_MS of real
// time, and one shortly after every move of the workbench clock (a jump ahead makes old data
// prunable at once). RETENTION_DAYS=0 starts nothing. Runs never overlap within a process; across
// processes the advisory lock in prune-old-data.ts keeps it to one.
import type { Runtime } from "../../runtime.ts";
import type { Worker } from "../../platform/worker.ts";
import { pruneOldData } from "./prune-old-data.ts";
import { AFTER_CLOCK_MOVE_MS, FIRST_RUN_MS, INTERVAL_MS } from "./retention-policy.ts";
import { warnUnlessOutage } from "../../platform/db/outage-log.ts";

export async function startRetentionWorker(runtime: Runtime): Promise<Worker> {
  const name = "retention-pruner";
  if (runtime.env.RETENTION_DAYS === 0) return { name, stop: async () => {} };
  const signal = { stopped: false };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (ms: number) => {
    if (signal.stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, ms);
    timer.unref();
  };
  // A clock move during a run: that run's cutoff is stale, so another follows it at once.
  let again = false;
  function run() {
    if (running) {
      again = true;
      return;
    }
    const options = { db: runtime.db, clock: runtime.clock, retentionDays: runtime.env.RETENTION_DAYS };
    running = pruneOldData({ ...options, logger: runtime.logger, signal })
      .then(() => undefined)
      .catch((err: Error) => warnUnlessOutage(runtime.logger, err, "retention: pruning old data failed"))
      .finally(() => {
        running = undefined;
        schedule(again ? AFTER_CLOCK_MOVE_MS : INTERVAL_MS);
        again = false;
      });
  }
  const onClockChanged = () => schedule(AFTER_CLOCK_MOVE_MS);
  runtime.clock.on("changed", onClockChanged);
  schedule(FIRST_RUN_MS);
  return {
    name,
    async stop() {
      signal.stopped = true;
      clearTimeout(timer);
      runtime.clock.off("changed", onClockChanged);
      await running;
    },
  };
}
