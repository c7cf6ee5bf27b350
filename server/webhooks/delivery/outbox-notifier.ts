// Wakes the delivery workers of OTHER processes (scale-out on one PostgreSQL)
// when this process planned deliveries: NOTIFY webhook_outbox, sent after the
// planning transaction committed, coalesced. This process's own worker is woken
// in-process (the `outbox:wake` event) and needs none of this. What is planned
// before the engine starts (the seed at boot) is found by each worker's first
// claim when it starts, and by its due-time timer.
//
// Why not pg_notify inside the change's transaction, as before: a transaction
// that NOTIFYs takes one database-wide lock at commit and holds it through its
// WAL flush, so every change of every incident committed one at a time. Under
// the inbound bench (32 connections) 2–4 backends were always waiting on that
// lock (pg_stat_activity: Lock:object in COMMIT). Sent afterwards, one
// notification covers every commit that finished before it was sent.
//
// The payload names the sending process, so this process's own worker, which hears its own
// NOTIFYs too, skips them: it was woken in-process already, and a claim per NOTIFY was a
// statement per inbound batch that found nothing. And a process that delivers itself sends
// none while no other process listens (`npm start`: one process): its own worker delivers
// what it plans, and a worker started elsewhere claims everything on its start.
import { randomBytes } from "node:crypto";
import { Prisma } from "../../platform/db/client.ts";
import { listenerName } from "../../platform/db/listen-channel.ts";
import { sqlQuery } from "../../platform/db/sql-transaction.ts";
import { processSingleton } from "../../platform/process-singleton.ts";
import type { Runtime } from "../../runtime.ts";
import { OUTBOX_CHANNEL } from "../outbox/outbox-row.ts";
import { webhookEvents } from "../webhook-events.ts";
import { warnUnlessOutage } from "../../platform/db/outage-log.ts";

/**
 * This process's NOTIFY payload on webhook_outbox and its listener's tag (one per process: every
 * workbench in it shares `outbox:wake`). Short: application_name holds 63 bytes.
 */
export const OUTBOX_SENDER = processSingleton("outbox-sender", () => randomBytes(8).toString("hex"));

/** How long an answer to "does another process listen?" is used before asking again. */
const LISTENERS_CHECK_MS = 1_000;

/** Whether a webhook_outbox notification came from this process (its worker was woken in-process). */
export const isOwnOutboxNotification = (payload: string | undefined) => payload === OUTBOX_SENDER;

export type OutboxNotifier = {
  stop: () => Promise<void>;
  /** Resolves once no notification is owed or in flight. */ settled: () => Promise<void>;
};

/**
 * Every `outbox:wake` (a commit that planned deliveries) is followed by a
 * NOTIFY sent after it: at most one is in flight, and a wake that arrives
 * meanwhile owes one more once it returns. Consecutive notifications are at
 * least `minGapMs` apart, so a burst of commits costs a few NOTIFYs, and a
 * worker elsewhere learns of new work at most `minGapMs` plus a round trip late.
 */
export function startOutboxNotifier(
  runtime: Pick<Runtime, "db" | "logger">,
  options: {
    minGapMs?: number;
    /** This process runs a delivery worker: it need not tell anyone when nobody else listens. */
    deliversItself?: boolean;
  } = {},
): OutboxNotifier {
  const minGapMs = options.minGapMs ?? 2;
  const events = webhookEvents();
  let owed = false;
  let sending: Promise<void> | undefined;
  let stopped = false;
  let othersListen = true;
  let checkedAtMs = -Infinity;

  /** Whether a listener of another process is connected to this database (an unreadable answer counts as yes). */
  async function anotherProcessListens(): Promise<boolean> {
    if (performance.now() - checkedAtMs < LISTENERS_CHECK_MS) return othersListen;
    checkedAtMs = performance.now();
    const [row] = await sqlQuery<{ others: boolean }>(
      runtime.db,
      Prisma.sql`SELECT EXISTS (
        SELECT 1 FROM pg_stat_activity
        WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
          AND (application_name IS NULL
            OR (application_name LIKE ${`${listenerName(OUTBOX_CHANNEL)}%`} AND application_name <> ${listenerName(OUTBOX_CHANNEL, OUTBOX_SENDER)}))
      ) AS others`,
    ).catch(() => [{ others: true }]);
    othersListen = row?.others ?? true;
    return othersListen;
  }

  async function sendOwed() {
    while (owed && !stopped) {
      owed = false;
      if (options.deliversItself && !(await anotherProcessListens())) continue;
      const started = performance.now();
      await sqlQuery(runtime.db, Prisma.sql`SELECT pg_notify(${OUTBOX_CHANNEL}, ${OUTBOX_SENDER})`).catch(
        (err: Error) =>
          warnUnlessOutage(
            runtime.logger,
            err,
            "NOTIFY webhook_outbox failed; other processes' workers find the work on their due-time timer",
          ),
      );
      const rest = minGapMs - (performance.now() - started);
      if (owed && rest > 0) await new Promise((r) => setTimeout(r, rest));
    }
    sending = undefined;
  }
  const onWake = () => {
    owed = true;
    sending ??= sendOwed();
  };
  events.on("outbox:wake", onWake);

  return {
    async settled() {
      while (sending) await sending;
    },
    async stop() {
      events.off("outbox:wake", onWake);
      await this.settled();
      stopped = true;
    },
  };
}
