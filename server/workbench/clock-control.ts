// Moving the workbench clock: the operations behind `workbench clock ...`,
// the dashboard's Clock controls and the tRPC clock router.
import type { WorkbenchClock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { advanceClockOffset, saveClockOffset } from "../platform/clock/persisted-clock.ts";
import { AppError } from "../platform/errors.ts";
import { shiftPendingRetriesBack } from "../webhooks/delivery/shift-retries-back.ts";

export type ClockState = { now: string; offsetMs: number; realNow: string };

/** The longest single jump: a week covers every window of the spec (1 h retries, 15 min sign-in tokens). */
export const MAX_ADVANCE_MS = 7 * 24 * 3600_000;

export function describeClock(clock: WorkbenchClock): ClockState {
  const nowMs = clock.nowMs();
  return {
    now: new Date(nowMs).toISOString(),
    offsetMs: clock.offsetMs,
    realNow: new Date(nowMs - clock.offsetMs).toISOString(),
  };
}

export async function advanceClock(options: {
  db: DbClient;
  clock: WorkbenchClock;
  byMs: number;
}): Promise<ClockState> {
  const { db, clock, byMs } = options;
  if (!Number.isFinite(byMs) || byMs <= 0)
    throw new AppError(
      "ValidationFailed",
      "The clock only moves forward: give a positive duration such as 61m, 10s or 2h.",
    );
  if (byMs > MAX_ADVANCE_MS) throw new AppError("ValidationFailed", "One jump may be at most 7 days.");
  await advanceClockOffset(db, clock, byMs);
  return describeClock(clock);
}

/** Back to real time. Retries scheduled while the clock was ahead move back with it (shift-retries-back.ts). */
export async function resetClock(options: { db: DbClient; clock: WorkbenchClock }): Promise<ClockState> {
  const { db } = options;
  await saveClockOffset(db, options.clock, 0, ({ offsetMs, now }) => [
    shiftPendingRetriesBack(db, { toOffsetMs: offsetMs, now }),
  ]);
  return describeClock(options.clock);
}
