// The delivery worker of one process. Any number of processes may run one on
// the same PostgreSQL: claims are one SKIP LOCKED statement, so lanes spread
// across workers and each lane stays strictly sequential.
//
// Wake-ups, no polling delay: new work (an in-process signal from the planner,
// and LISTEN webhook_outbox for other processes), a finished delivery (its
// lane's next event is ready), a workbench clock jump (clock `changed`: due
// retries and expiries happen at once), and one timer set to the earliest due
// time from the due-time index (not a timer per incident).
import { randomUUID } from "node:crypto";
import { listenToChannel } from "../../platform/db/listen-channel.ts";
import type { Runtime } from "../../runtime.ts";
import type { Worker } from "../../platform/worker.ts";
import { OUTBOX_CHANNEL } from "../planning/plan-deliveries.ts";
import { webhookEvents } from "../webhook-events.ts";
import { claimDeliveries, laneKey, nextWakeInMs, releaseClaims, type ClaimedDelivery } from "./claim-deliveries.ts";
import { LANE_CLAIM_DEPTH, type Outcome } from "./record-outcome.ts";
import { deliverEvent } from "./deliver-event.ts";
import { createDeliveryTargetLoader } from "./load-delivery-target.ts";
import { REQUEST_TIMEOUT_MS } from "./send-request.ts";
import { isOwnOutboxNotification, OUTBOX_SENDER } from "./outbox-notifier.ts";
import { registerLocalClaimer } from "./local-claimer.ts";
import { createDueTimer } from "./due-timer.ts";
import { createClaimPump } from "./claim-pump.ts";

export type DeliveryWorkerOptions = {
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

export async function startDeliveryWorker(
  runtime: Runtime,
  options: DeliveryWorkerOptions = {},
): Promise<Worker & { workerId: string; wake: () => void }> {
  const workerId = options.workerId ?? `delivery-${process.pid}-${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? 64;
  const prefetch = options.prefetch ?? Math.ceil(concurrency / 2);
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? timeoutMs + 20_000;
  // An attempt is bounded by timeoutMs in total (send-request.ts: connect, send, the whole
  // response), counted from its start; a head starts only while its lease covers that (below).
  if (!(leaseMs > timeoutMs))
    throw new Error(`delivery worker: leaseMs (${leaseMs}) must exceed timeoutMs (${timeoutMs})`);
  const maxSleepMs = options.maxSleepMs ?? 30_000;
  const targets = createDeliveryTargetLoader(runtime.db);
  const log = runtime.logger.child({ worker: workerId });

  let stopped = false;
  /** Attempts in flight: what `concurrency` bounds. */
  let inflight = 0;
  /** Deliveries started whose outcome is not recorded yet (stop waits for them). */
  let unrecorded = 0;
  /** Claimed heads not yet started (at most `prefetch` beyond the free slots), oldest claim first, with when (real time) they were claimed. */
  const ready: Array<{ row: ClaimedDelivery; claimedAtMs: number }> = [];
  // A head claimed ahead may start only while its lease (counted from the claim, in
  // real time) still covers a whole attempt and a margin: past that, a second worker
  // could re-claim it mid-attempt. With the default lease (timeout + 20 s) a buffered
  // head always starts in time; a lease close to the timeout sends the late ones back.
  // The margin (half the slack, at most 1 s) covers the time between the lease's start in the
  // database and the claim's answer.
  const startWithinMs = leaseMs - timeoutMs - Math.min(1_000, (leaseMs - timeoutMs) / 2);
  /** Heads given back (late, or unsent at stop); stop waits for them. */
  let releasing: Promise<unknown> = Promise.resolve();
  const release = (rows: ClaimedDelivery[]) =>
    releaseClaims(runtime.db, { ids: rows.map((r) => r.id), workerId }).catch((err: Error) =>
      log.warn({ err }, "releasing unsent claims failed; their lease will free them"),
    );
  const idle = new Set<() => void>();
  /** How many more heads the worker would take now: free slots plus prefetch, less what it holds. */
  const room = () => concurrency + prefetch - inflight - ready.length;

  // A delivered event's record claims its lane's next event for this worker (record-outcome.ts): a
  // busy lane's events follow one another without a claim each. It queues like any claimed head. The
  // record also claims the events after that one (LANE_CLAIM_DEPTH in all), which wait here in lane
  // order; each leaves as soon as the attempt before it is delivered, while that attempt's record is
  // being written (decisions 0031, 0042).
  /**
   * Lanes whose delivery's record settled what comes next (read once by that delivery's end): it
   * claimed the next event, or found none while no plan was heard of — a plan heard of later wakes
   * the worker itself. (One committed while the record ran may be invisible to it, and its wake may
   * have claimed before the record committed: then the lane is claimed again.)
   */
  const continued = new Set<string>();
  /** Plans heard of (this process's commits and other processes' NOTIFYs), counted. */
  let plansHeard = 0;
  /**
   * Lanes whose head this worker holds (claimed, ready or in flight) and whose end is not settled yet.
   * A plan of this process that only queued behind such heads wakes nothing: each head's end claims
   * its successor, or wakes the worker when it found none but a plan was heard of meanwhile. A lane
   * leaves the set as soon as its record found it empty (`none`), before the attempt's end runs, so a
   * plan heard of after that record wakes the worker itself.
   */
  const heldLanes = new Set<string>();
  /**
   * The lanes this worker has events of, claimed or not yet recorded (decision 0031).
   * - `current`: the head, claimed, ready or in flight, whose attempt has not ended.
   * - `parked`: the events after it, claimed ahead, in lane order (at most LANE_CLAIM_DEPTH - 1); the
   *   first leaves when `current` is delivered, and all go back to pending, before `current`'s record
   *   is written, when it is not.
   * - `tail`: the id of the lane's last event the worker took; a successor a record claims is taken
   *   only directly behind it (anything else is given back).
   * - `open`: no attempt is under way and the last one was delivered: a successor may leave at once.
   * - `recorded`: settles once the record of the lane's last started event is written; the next
   *   event's record waits for it, so a lane's records are written one at a time, in order, and each
   *   sees the claims of the one before.
   * - `releasing`: a successor's release, which the next record waits for (an expiry's rewrite of
   *   the queue must see it pending).
   * - `broken`: a record of the lane failed or found its claim lost: that event stays unfinished (its
   *   lease will send it again), so nothing more is claimed behind it here; the lane goes back to
   *   the claims once this worker has recorded what it started.
   */
  type Lane = {
    current: ClaimedDelivery | null;
    parked: Array<{ row: ClaimedDelivery; claimedAtMs: number }>;
    tail: bigint;
    open: boolean;
    recorded: Promise<unknown>;
    releasing: Promise<unknown>;
    unrecorded: number;
    broken: boolean;
  };
  const lanes = new Map<string, Lane>();
  const hold = (row: ClaimedDelivery, claimedAtMs: number) => {
    const key = laneKey(row);
    heldLanes.add(key);
    const lane = lanes.get(key) ?? newLane(row);
    lane.current = row;
    lane.tail = row.id;
    ready.push({ row, claimedAtMs });
  };
  function newLane(row: ClaimedDelivery): Lane {
    const lane: Lane = {
      current: null,
      parked: [],
      tail: row.id,
      open: false,
      recorded: Promise.resolve(),
      releasing: Promise.resolve(),
      unrecorded: 0,
      broken: false,
    };
    lanes.set(laneKey(row), lane);
    return lane;
  }
  const giveBack = (rows: ClaimedDelivery[]) => {
    const released = release(rows);
    releasing = Promise.all([releasing, released]);
    return released;
  };
  /** Gives back successors of `lane` that must not leave; the lane's next record waits for them. */
  const giveBackBehind = (lane: Lane, rows: ClaimedDelivery[]) => {
    if (rows.length > 0) lane.releasing = Promise.all([lane.releasing, giveBack(rows)]);
  };
  const claimNext = {
    leaseMs,
    take(row: ClaimedDelivery, claimedAtMs: number, after: bigint) {
      const key = laneKey(row);
      const lane = lanes.get(key);
      if (stopped || !lane || lane.broken || lane.tail !== after) {
        void giveBack([row]);
        return;
      }
      if (lane.current) {
        if (lane.parked.length >= LANE_CLAIM_DEPTH - 1) {
          void giveBack([row]);
          return;
        }
        lane.tail = row.id;
        lane.parked.push({ row, claimedAtMs });
        continued.add(key);
        return;
      }
      if (!lane.open) {
        // The attempt before it was not delivered: the lane waits for that event's retry.
        giveBackBehind(lane, [row]);
        return;
      }
      continued.add(key);
      hold(row, claimedAtMs);
      startReady();
    },
    plansHeard: () => plansHeard,
    none(lane: string, plansHeardBefore: number) {
      heldLanes.delete(lane);
      if (plansHeard === plansHeardBefore) continued.add(lane);
    },
  };
  const deps = { runtime, workerId, targets, timeoutMs, claimNext };

  // A slot is free as soon as its attempt is over, not once its outcome is recorded:
  // holding it through the record statement (batched per event-loop turn) kept a
  // slot ~19 ms per event in a drain, and 64 slots made that the bound.
  function start(row: ClaimedDelivery) {
    inflight++;
    unrecorded++;
    const key = laneKey(row);
    const lane = lanes.get(key) ?? newLane(row); // hold() made it
    lane.unrecorded++;
    lane.open = false;
    const previous = lane.recorded;
    let recorded!: () => void;
    lane.recorded = new Promise<void>((resolve) => (recorded = resolve));
    let attempted = false;
    const attemptEnded = (state: Outcome["state"]) => {
      if (attempted) return;
      attempted = true;
      inflight--;
      if (lane.current === row) lane.current = null;
      const parked = lane.parked;
      lane.parked = [];
      if (state === "delivered") {
        lane.open = true;
        const [next, ...rest] = parked;
        if (next) {
          // Delivered: its successor leaves now, ahead of other lanes' heads, while this record is written.
          lane.current = next.row;
          lane.parked = rest;
          ready.unshift(next);
        }
      } else
        giveBackBehind(
          lane,
          parked.map((p) => p.row),
        );
      startReady();
      pump.slotFreed();
      // This record waits for the lane's previous one, and for any successor given back meanwhile.
      return previous.then(() => lane.releasing).then(() => !lane.broken);
    };
    const breakLane = () => {
      lane.broken = true;
      giveBackBehind(
        lane,
        lane.parked.map((p) => p.row),
      );
      lane.parked = [];
    };
    deliverEvent(deps, row, attemptEnded)
      .then(
        (recorded) => {
          if (!recorded) breakLane();
        },
        (err: Error) => {
          breakLane();
          log.error({ err, requestId: row.requestId }, "delivery step failed; the lease will retry it");
        },
      )
      .finally(() => {
        void attemptEnded("pending");
        unrecorded--;
        lane.unrecorded--;
        recorded();
        if (unrecorded === 0) for (const f of idle) f();
        const settled = continued.delete(key);
        // A successor held here settles the lane at its own end. Otherwise the lane's next event is
        // claimable now, unless the record claimed it or found the lane empty.
        if (!lane.current && lane.parked.length === 0) {
          if (!settled) {
            heldLanes.delete(key);
            wake();
          }
          if (lane.unrecorded === 0 && lanes.get(key) === lane) lanes.delete(key);
        }
      });
  }

  function startReady() {
    const late: ClaimedDelivery[] = [];
    while (!stopped && inflight < concurrency && ready.length > 0) {
      const { row, claimedAtMs } = ready.shift()!;
      if (performance.now() - claimedAtMs > startWithinMs) late.push(row);
      else start(row);
    }
    for (const row of [...late]) {
      const key = laneKey(row);
      heldLanes.delete(key);
      const lane = lanes.get(key);
      if (lane?.current === row) {
        lane.current = null;
        // What was kept behind it must not leave before it: it goes back too.
        late.push(...lane.parked.map((p) => p.row));
        lane.parked = [];
      }
      if (lane && lane.unrecorded === 0 && lane.parked.length === 0) lanes.delete(key);
    }
    if (late.length) releasing = Promise.all([releasing, release(late).then(wake)]);
  }

  const pump = createClaimPump({
    room,
    claim: (limit) => claimDeliveries(runtime.db, { now: runtime.clock.now(), leaseMs, workerId, limit }),
    take(rows, claimedAtMs) {
      for (const row of rows) hold(row, claimedAtMs);
      startReady();
    },
    idle: () => dueTimer.refresh(),
    failed(err) {
      log.error({ err }, "claiming deliveries failed; retrying in 1 s");
      dueTimer.retrySoon();
    },
  });
  const wake = pump.wake;

  const dueTimer = createDueTimer({
    readNextWakeInMs: () => nextWakeInMs(runtime.db, { now: runtime.clock.now() }),
    wake,
    maxSleepMs,
    onReadFailed: (err) => log.error({ err }, "reading the next due time failed; retrying in 1 s"),
  });

  // Other processes' plans arrive by NOTIFY after their commit. A lost listener connection is
  // made again (with backoff); what was notified meanwhile is found by the claim its return wakes.
  const listener = await listenToChannel({
    databaseUrl: runtime.databaseUrl,
    channel: OUTBOX_CHANNEL,
    tag: OUTBOX_SENDER, // other processes' notifiers see who listens (outbox-notifier.ts)
    onNotification: (payload) => {
      if (isOwnOutboxNotification(payload)) return;
      plansHeard++;
      wake();
    },
    onReconnect: () => {
      log.info("outbox listener reconnected; claiming what was planned meanwhile");
      plansHeard++;
      wake();
    },
    onError: (err) => log.warn({ err }, "outbox listener failed; reconnecting (the due-time timer still runs)"),
  });

  // Heads of idle lanes that this process's planning writes insert claimed for this worker (0030).
  const unregisterClaimer = registerLocalClaimer(runtime.db, {
    workerId,
    leaseMs,
    room: () => (stopped ? 0 : room()),
    take(rows, claimedAtMs) {
      if (stopped) {
        releasing = Promise.all([releasing, release(rows)]);
        return;
      }
      for (const row of rows) hold(row, claimedAtMs);
      startReady();
    },
  });

  const events = webhookEvents();
  // `lanes`: the lanes of the rows the commit planned pending. Queued only behind heads this worker
  // holds, they need no claim now (see heldLanes).
  const onLocal = (lanes?: readonly string[]) => {
    plansHeard++;
    if (!lanes || lanes.some((lane) => !heldLanes.has(lane))) wake();
  };
  events.on("outbox:wake", onLocal);
  // A jump makes future due times due now: claim, and read the next due time at once.
  const onClockChanged = () => {
    dueTimer.forgetLastRead();
    plansHeard++; // what became due counts as new work for a lane a record just found empty
    wake();
  };
  runtime.clock.on("changed", onClockChanged);
  wake();

  return {
    name: "webhook-delivery",
    workerId,
    wake,
    async stop() {
      stopped = true;
      unregisterClaimer();
      const pumpStopped = pump.stop();
      const timerStopped = dueTimer.stop();
      events.off("outbox:wake", onLocal);
      runtime.clock.off("changed", onClockChanged);
      targets.close();
      await listener.stop();
      await pumpStopped; // a claim in flight lands in `ready`, and is released below
      await timerStopped;
      // Heads claimed ahead but never started go back to their lanes at once (not after their lease).
      const unsent = ready.splice(0).map((r) => r.row);
      for (const lane of lanes.values()) {
        unsent.push(...lane.parked.map((p) => p.row));
        lane.parked = [];
      }
      if (unsent.length) await release(unsent);
      await releasing;
      // Let attempts in flight record their result (each is bounded by the request timeout); a
      // successor their records claimed meanwhile is given back at once.
      if (unrecorded > 0) await new Promise<void>((resolve) => idle.add(resolve));
      await releasing;
    },
  };
}
