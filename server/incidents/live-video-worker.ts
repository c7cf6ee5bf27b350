// Ends live videos whose simulated duration (LIVE_VIDEO_DURATION_S) has passed
// (and expires callers' temporary-information warnings, temporary-information.ts)
// on the workbench clock. Checks once a second and at once when the clock
// jumps. Safe with several processes on one database: endLiveVideo locks the
// incident row and does nothing when the video already ended.
import type { Runtime } from "../runtime.ts";
import type { Worker } from "../platform/worker.ts";
import { endDueLiveVideos } from "./reach-caller.ts";
import { expireDueTemporaryInformation } from "./temporary-information.ts";
import { createOutageLog } from "../platform/db/outage-log.ts";

const CHECK_EVERY_MS = 1_000;

export async function startLiveVideoWorker(runtime: Pick<Runtime, "db" | "clock" | "logger">): Promise<Worker> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const outage = createOutageLog(runtime.logger, "live-video check");
  const tick = () => {
    if (stopped || running) return;
    running = endDueLiveVideos({ db: runtime.db, clock: runtime.clock })
      .then((n) => {
        if (n > 0) runtime.logger.debug({ ended: n }, "live videos ended on their own");
      })
      // The same kind of due time: a caller's temporary-information warning leaves the snapshot when it expires.
      .then(() => expireDueTemporaryInformation({ db: runtime.db, clock: runtime.clock }))
      .then((n) => {
        if (n > 0) runtime.logger.debug({ expired: n }, "temporary-information warnings expired");
      })
      .then(outage.succeeded, (err: Error) => void outage.failed(err, "live-video check failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, CHECK_EVERY_MS);
  timer.unref();
  runtime.clock.on("changed", tick);
  return {
    name: "live-video",
    async stop() {
      stopped = true;
      clearInterval(timer);
      runtime.clock.off("changed", tick);
      await running;
    },
  };
}
