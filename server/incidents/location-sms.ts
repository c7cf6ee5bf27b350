// caller/locate: the workbench pretends to send a location-link SMS and keeps
// it (dashboard, `workbench sms list`). Opening its link in the simulator
// yields a Measured location with source MobileAppSms. Sending changes no
// snapshot member, so it records no change — but a closed incident refuses it.
import { randomUUID } from "node:crypto";
import type { Clock } from "../platform/clock/clock.ts";
import { Prisma } from "../platform/db/client.ts";
import { AppError } from "../platform/errors.ts";
import { applyIncidentChange } from "./apply-change.ts";
import { addMeasuredLocation, type MeasuredInput } from "./caller-track.ts";
import type { Db } from "./db-handle.ts";
import type { DbClient } from "../platform/db/client.ts";
import { locationSmsLink } from "./portal-urls.ts";
import type { IncidentOperation } from "./change-types.ts";

export async function sendLocationSms(options: IncidentOperation & { portalUrl: string; agencyId: string }) {
  return applyIncidentChange({
    ...options,
    transactional: true,
    mutate: async ({ tx, incident, now }) => {
      const sentTo = incident.snapshot.caller.phoneNumber;
      if (!sentTo)
        throw new AppError("CallerPhoneNumberRequired", "The incident has no caller phone number to send the SMS to.");
      const id = randomUUID();
      await tx.execute(Prisma.sql`
        INSERT INTO "SimulatedSms" (id, "incidentId", "agencyId", "sentTo", link, "sentAt")
        VALUES (${id}::uuid, ${incident.id}::uuid, ${options.agencyId}::uuid, ${sentTo}, ${locationSmsLink(options.portalUrl, id)}, ${now}::timestamptz)`);
      return { changes: [], result: { smsId: id, sentTo } };
    },
  });
}

export async function listSms(options: { db: Db; incidentId?: string; take?: number }) {
  const rows = await options.db.simulatedSms.findMany({
    where: options.incidentId ? { incidentId: options.incidentId } : {},
    orderBy: { sentAt: "desc" },
    take: options.take ?? 100,
  });
  return rows.map((r) => ({
    smsId: r.id,
    incidentId: r.incidentId,
    agencyId: r.agencyId,
    sentTo: r.sentTo,
    link: r.link,
    sentAtUtc: r.sentAt.toISOString(),
    openedAtUtc: r.openedAt?.toISOString() ?? null,
  }));
}

/** The simulated caller opens the SMS link and shares a fix: a MobileAppSms Measured location. */
export async function openLocationSms(options: { db: DbClient; clock: Clock; smsId: string; fix: MeasuredInput }) {
  const sms = await options.db.simulatedSms.findUnique({ where: { id: options.smsId } });
  if (!sms) throw new AppError("SmsNotFound", "No simulated SMS with that ID.");
  const applied = await addMeasuredLocation({
    db: options.db,
    clock: options.clock,
    incidentId: sms.incidentId,
    actor: "simulator",
    source: "MobileAppSms",
    fix: options.fix,
  });
  await options.db.simulatedSms.update({
    where: { id: sms.id },
    data: { openedAt: sms.openedAt ?? options.clock.now() },
  });
  return applied;
}
