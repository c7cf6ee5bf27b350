// The delivery worker of one process. Any number of processes may run one on
// the same PostgreSQL: claims are one SKIP LOCKED statement, so lanes spread
// across workers and each lane stays strictly sequential.
//
// Wake-ups, no polling delay: new work (an in-process signal from the planner,
// and LISTEN webhook_outbox for other processes), a finished delivery (its
// lane's next event is ready), a workbench clock jump (clock `changed`: due
// retries and expiries happen at once), and one timer set to the earliest due
// time from the due-time index (not a timer per incident).
//
// This file composes the pieces (decision 0048): the claim pump (claim-pump.ts), the due-time
// timer (due-timer.ts), the lanes and their transitions (lanes.ts: the worker's state), and the
// slots that run attempts (attempt-slots.ts).
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { listenToChannel } from "../../platform/db/listen-channel.ts";
import { isDatabaseUnavailable } from "../../platform/db/database-unavailable.ts";
import type { Runtime } from "../../runtime.ts";
import type { Worker } from "../../platform/worker.ts";
import { REQUEST_TIMEOUT_MS } from "../../webhook-contracts/delivery-rules.ts";
import { webhookEvents } from "../webhook-events.ts";
import { OUTBOX_CHANNEL, type ClaimedDelivery } from "../outbox/outbox-row.ts";
import { registerLocalClaimer } from "../outbox/local-claimer.ts";
import type { CutOverLane } from "../outbox/lane-cutover.ts";
import { claimDeliveries, nextWakeInMs, releaseClaims } from "./claim-deliveries.ts";
import type { ClaimNext } from "./record-outcome.ts";
import { deliverEvent } from "./deliver-event.ts";
import { createDeliveryTargetLoader } from "./load-delivery-target.ts";
import { isOwnOutboxNotification, OUTBOX_SENDER } from "./outbox-notifier.ts";
import { createDueTimer } from "./due-timer.ts";
import { createClaimPump } from "./claim-pump.ts";
import { Lanes } from "./lanes.ts";
import { createAttemptSlots, startWithinMs } from "./attempt-slots.ts";
import { createOutageRecovery } from "./outage-recovery.ts";

export type DeliveryWorkerOptions = {
  /**
   * The planner's lane cutover (planning/supersede-queued-events.ts), run when an event of another
   * contract is superseded: handed in by the engine's composition root, so delivery does not import
   * planning (decision 0060).
   */
  cutOverLane: CutOverLane;
  workerId?: string;
  /** Attempts in flight at once per worker. */
  concurrency?: number;
  /**
   * Heads claimed ahead of free slots, so a finished attempt's slot starts the
   * next one at once instead of waiting for a claim's round trip (default: half
   * of `concurrency`). Such a head shows as delivering a few milliseconds early.
   */
  prefetch?: number;
  timeoutMs?: number;
  /** A claim older than this, in real time (not the workbench clock), is taken to be from a dead worker and re-claimed. Must exceed timeoutMs (checked). */
  leaseMs?: number;
  /** Safety re-poll in case a notification was lost (a listener reconnecting also claims at once). */
  maxSleepMs?: number;
};

export type DeliveryWorker = Worker & {
  workerId: string;
  wake: () => void;
  /**
   * Nothing runs or is about to: no claim or due-time read in flight or queued, no delivery started
   * and not yet recorded, no head ready. Only a plan, a NOTIFY, the due-time timer or a clock jump wakes the worker now; a
   * test waits for this before checking which of those wakes it.
   */
  settled: () => boolean;
};

/** The options with their defaults. */
function settingsOf(options: DeliveryWorkerOptions) {
  const concurrency = options.concurrency ?? 64;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? timeoutMs + 20_000;
  // An attempt is bounded by timeoutMs in total (send-request.ts: connect, send, the whole
  // response), counted from its start; a head starts only while its lease covers that (attempt-slots.ts).
  if (!(leaseMs > timeoutMs))
    throw new Error(`delivery worker: leaseMs (${leaseMs}) must exceed timeoutMs (${timeoutMs})`);
  return {
    workerId: options.workerId ?? `delivery-${process.pid}-${randomUUID().slice(0, 8)}`,
    concurrency,
    prefetch: options.prefetch ?? Math.ceil(concurrency / 2),
    timeoutMs,
    leaseMs,
    maxSleepMs: options.maxSleepMs ?? 30_000,
  };
}

export async function startDeliveryWorker(runtime: Runtime, options: DeliveryWorkerOptions): Promise<DeliveryWorker> {
  const { workerId, concurrency, prefetch, timeoutMs, leaseMs, maxSleepMs } = settingsOf(options);
  const targets = createDeliveryTargetLoader(runtime.db);
  const log = runtime.logger.child({ worker: workerId });

  let stopped = false;
  /** Heads given back (late, successors not to send, or unsent at stop); stop waits for them. */
  let releasing: Promise<unknown> = Promise.resolve();
  // Heads an outage kept from going back are given back when it ends (outage-recovery.ts).
  const release = (rows: ClaimedDelivery[]) =>
    releaseClaims(runtime.db, { ids: rows.map((r) => r.id), workerId }).catch((err: Error) => {
      if (isDatabaseUnavailable(err)) outage.strand(rows.map((r) => r.id));
      else log.warn({ err }, "releasing unsent claims failed; their lease will free them");
    });
  const giveBack = (rows: ClaimedDelivery[]) => {
    const released = release(rows);
    releasing = Promise.all([releasing, released]);
    return released;
  };
  const lanes = new Lanes({ giveBack });

  // A delivered event's record claims its lane's next events for this worker (record-outcome.ts):
  // they wait in their lane, and a busy lane's events follow one another without a claim each.
  const claimNext: ClaimNext = {
    leaseMs,
    take(row, claimedAtMs, after) {
      if (lanes.offerSuccessor(row, claimedAtMs, after)) slots.startReady();
    },
    plansHeard: () => lanes.plansHeard,
    none: (lane, plansHeardBefore) => lanes.foundNoSuccessor(lane, plansHeardBefore),
  };
  const deps = { runtime, workerId, targets, timeoutMs, claimNext, cutOverLane: options.cutOverLane };
  const slots = createAttemptSlots({
    concurrency,
    startWithinMs: startWithinMs(leaseMs, timeoutMs),
    lanes,
    deliver: (row, attempted) => deliverEvent(deps, row, attempted),
    giveBackLate(rows) {
      releasing = Promise.all([releasing, release(rows).then(wake)]);
    },
    slotFreed: () => pump.slotFreed(),
    laneClaimable: () => wake(),
    stepFailed: (err, row) => {
      if (isDatabaseUnavailable(err)) outage.strand([row.id]);
      outage.failed(err, "delivery step failed; the lease will retry it", { requestId: row.requestId });
    },
  });
  /** How many more heads the worker would take now: free slots plus prefetch, less what it holds. */
  const room = () => concurrency + prefetch - slots.inflight - lanes.readyCount;
  const takeHeads = (rows: ClaimedDelivery[], claimedAtMs: number) => {
    for (const row of rows) lanes.hold(row, claimedAtMs);
    slots.startReady();
  };

  const pump = createClaimPump({
    room,
    claim: (limit) => claimDeliveries(runtime.db, { now: runtime.clock.now(), leaseMs, workerId, limit }),
    take: takeHeads,
    idle: () => {
      outage.answered();
      dueTimer.refresh();
    },
    // A database outage: one line, then tries spaced 250 ms doubling to 5 s (outage-log.ts).
    failed: (err) => dueTimer.retrySoon(outage.failed(err, "claiming deliveries failed; retrying")),
  });
  const wake = pump.wake;
  const outage = createOutageRecovery({
    db: runtime.db,
    clock: runtime.clock,
    workerId,
    log,
    holdsLane: (key) => lanes.modeOf(key) !== undefined || lanes.isHeld(key) || lanes.isContinued(key),
    release(ids) {
      const released = releaseClaims(runtime.db, { ids, workerId });
      releasing = Promise.all([releasing, released.catch(() => {})]);
      return released;
    },
    wake,
    stopped: () => stopped,
  });
  const dueTimer = createDueTimer({
    readNextWakeInMs: () => nextWakeInMs(runtime.db, { now: runtime.clock.now() }),
    wake,
    maxSleepMs,
    onReadFailed: (err) => outage.failed(err, "reading the next due time failed; retrying"),
  });

  const hearing = await hearPlans(runtime, log, lanes, dueTimer, wake);
  // Heads of idle lanes that this process's planning writes insert claimed for this worker (0030).
  const unregisterClaimer = registerLocalClaimer(runtime.db, {
    workerId,
    leaseMs,
    room: () => (stopped ? 0 : room()),
    take(rows, claimedAtMs) {
      if (stopped) void giveBack(rows);
      else takeHeads(rows, claimedAtMs);
    },
  });
  wake();

  return {
    name: "webhook-delivery",
    workerId,
    wake,
    settled: () => !pump.busy && !dueTimer.reading && slots.unrecorded === 0 && lanes.readyCount === 0,
    async stop() {
      stopped = true;
      lanes.stop();
      slots.stop();
      unregisterClaimer();
      const pumpAndTimerStopped = Promise.all([pump.stop(), dueTimer.stop()]);
      targets.close();
      await hearing.stop();
      await pumpAndTimerStopped; // a claim in flight lands in the start buffer, and is released below
      // Heads claimed ahead but never started go back to their lanes at once (not after their lease).
      const unsent = lanes.takeUnsent();
      if (unsent.length) await release(unsent);
      await releasing;
      // Let attempts in flight record their result (each is bounded by the request timeout); a
      // successor their records claimed meanwhile is given back at once.
      await slots.whenRecorded();
      await releasing;
    },
  };
}

/**
 * What tells the worker that new rows may be ready: this process's commits (`outbox:wake`), other
 * processes' plans by NOTIFY after their commit, and a workbench clock jump. A lost listener
 * connection is made again (with backoff); what was notified meanwhile is found by the claim its
 * return wakes.
 */
async function hearPlans(
  runtime: Runtime,
  log: Logger,
  lanes: Lanes,
  dueTimer: { forgetLastRead: () => void },
  wake: () => void,
): Promise<{ stop: () => Promise<void> }> {
  const planHeard = () => {
    lanes.planHeard();
    wake();
  };
  const listener = await listenToChannel({
    databaseUrl: runtime.databaseUrl,
    channel: OUTBOX_CHANNEL,
    tag: OUTBOX_SENDER, // other processes' notifiers see who listens (outbox-notifier.ts)
    onNotification: (payload) => {
      if (!isOwnOutboxNotification(payload)) planHeard();
    },
    onReconnect: () => {
      log.debug("outbox listener reconnected; claiming what was planned meanwhile");
      planHeard();
    },
    onError: (err) => log.warn({ err }, "outbox listener failed; reconnecting (the due-time timer still runs)"),
  });
  const events = webhookEvents();
  // `keys`: the lanes of the rows the commit planned pending. Queued only behind heads this worker
  // holds, they need no claim now (lanes.ts: held).
  const onLocal = (keys?: readonly string[]) => {
    lanes.planHeard();
    if (!keys || keys.some((key) => !lanes.isHeld(key))) wake();
  };
  events.on("outbox:wake", onLocal);
  // A jump makes future due times due now: claim, and read the next due time at once. What became
  // due counts as a plan heard of, for a lane a record just found empty.
  const onClockChanged = () => {
    dueTimer.forgetLastRead();
    planHeard();
  };
  runtime.clock.on("changed", onClockChanged);
  return {
    async stop() {
      events.off("outbox:wake", onLocal);
      runtime.clock.off("changed", onClockChanged);
      await listener.stop();
    },
  };
}
