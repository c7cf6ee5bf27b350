// Calls (spec "Call"): repeat key agency + callerPhoneNumber + startedAtUtc,
// enforced by a unique index — of concurrent repeats exactly one inserts.
// A repeat never rewrites the call: one that sends a different endedAtUtc
// than the call already ended at is 409 CallAlreadyExists.
import { randomUUID } from "node:crypto";
import type { Clock } from "../platform/clock/clock.ts";
import { AppError } from "../platform/errors.ts";
import { isUuid, type Db } from "./db-handle.ts";

export type CallView = { callId: string; callerPhoneNumber: string; startedAtUtc: string; endedAtUtc: string | null };

const view = (c: { id: string; callerPhoneNumber: string; startedAtUtc: Date; endedAtUtc: Date | null }): CallView => ({
  callId: c.id,
  callerPhoneNumber: c.callerPhoneNumber,
  startedAtUtc: c.startedAtUtc.toISOString(),
  endedAtUtc: c.endedAtUtc?.toISOString() ?? null,
});

export async function reportCall(options: {
  db: Db;
  clock: Clock;
  agencyId: string;
  callerPhoneNumber: string;
  startedAt: Date;
  endedAt?: Date;
}): Promise<{ created: boolean; call: CallView }> {
  const { db, agencyId, callerPhoneNumber, startedAt, endedAt } = options;
  const inserted = await db.call.createMany({
    data: [
      {
        id: randomUUID(),
        agencyId,
        callerPhoneNumber,
        startedAtUtc: startedAt,
        endedAtUtc: endedAt ?? null,
        createdAt: options.clock.now(),
      },
    ],
    skipDuplicates: true,
  });
  const call = await db.call.findUniqueOrThrow({
    where: { agencyId_callerPhoneNumber_startedAtUtc: { agencyId, callerPhoneNumber, startedAtUtc: startedAt } },
  });
  if (inserted.count === 0 && endedAt && call.endedAtUtc && call.endedAtUtc.getTime() !== endedAt.getTime()) {
    throw new AppError(
      "CallAlreadyExists",
      "The call already ended at a different time. Repeat without endedAtUtc to obtain its callId.",
    );
  }
  return { created: inserted.count > 0, call: view(call) };
}

/** Sets the end once; a second end is 409 CallAlreadyEnded. The conditional UPDATE makes concurrent ends safe. */
export async function endCall(options: { db: Db; agencyId: string; callId: string; endedAt: Date }): Promise<CallView> {
  const { db, agencyId, callId, endedAt } = options;
  const notFound = new AppError("CallNotFound", "No call with that ID is owned by the token's agency.");
  if (!isUuid(callId)) throw notFound;
  // The end may not precede the start (checked in the same conditional UPDATE).
  const updated = await db.call.updateMany({
    where: { id: callId, agencyId, endedAtUtc: null, startedAtUtc: { lte: endedAt } },
    data: { endedAtUtc: endedAt },
  });
  const call = await db.call.findFirst({ where: { id: callId, agencyId } });
  if (!call) throw notFound;
  if (updated.count === 0 && call.endedAtUtc === null)
    throw new AppError("ValidationFailed", "endedAtUtc must not be before the call's startedAtUtc.", [
      { field: "endedAtUtc", message: "before startedAtUtc" },
    ]);
  if (updated.count === 0) throw new AppError("CallAlreadyEnded", "The call already has an end time.");
  return view(call);
}

export async function findCall(options: { db: Db; agencyId: string; callId: string }) {
  if (!isUuid(options.callId)) return null;
  return options.db.call.findFirst({ where: { id: options.callId, agencyId: options.agencyId } });
}
