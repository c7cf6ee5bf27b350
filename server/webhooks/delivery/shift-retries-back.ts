// When the workbench clock moves back (`workbench clock reset` after a jump
// ahead), retries scheduled during the jump carry due times up to the jump's
// length in the future: without this, a lane whose head failed while the clock
// was ahead stalls for that long in real time. Each pending row's nextAttemptAt
// moves back by the same Δ, so its remaining backoff is kept, but never before
// the new now (a retry is never pulled earlier than it could have been due).
// producedAt is not touched: it is the Service-Request-Timestamp retries keep
// and the start of the event's hour.
//
// Run ONCE per clock change, by the process that changes it, inside the clock
// change's transaction (clock-control.ts), never in each process's `changed`
// listener (every process runs one). Δ is read from the stored offset in the
// same statement, under its row lock, before the new offset is written: two
// resets at once cannot shift twice (the second sees Δ = 0). One statement;
// time is a bound parameter from the workbench clock, never now().
import type { DbClient, Prisma } from "../../platform/db/client.ts";

export function shiftPendingRetriesBack(
  db: DbClient,
  options: { toOffsetMs: bigint; now: Date },
): Prisma.PrismaPromise<number> {
  const { toOffsetMs, now } = options;
  return db.$executeRaw`
    WITH moved AS (
      SELECT "offsetMs" - ${toOffsetMs}::bigint AS delta_ms FROM "WorkbenchClock" WHERE id = 1 FOR UPDATE
    )
    UPDATE "WebhookDelivery" d
    SET "nextAttemptAt" = GREATEST(d."nextAttemptAt" - moved.delta_ms::double precision * interval '1 millisecond', ${now}::timestamptz)
    FROM moved
    WHERE moved.delta_ms > 0 AND d.state = 'pending' AND d."nextAttemptAt" > ${now}::timestamptz`;
}
