// The simulated conversation. Messages are no snapshot member and produce no
// webhook event (the contract's chat has activation only); the portal's chat
// page shows them. A message needs an active chat on an open incident.
import { randomUUID } from "node:crypto";
import type { Clock } from "../platform/clock/clock.ts";
import { AppError } from "../platform/errors.ts";
import type { Db } from "../incidents/db-handle.ts";
import { readIncident } from "../incidents/read-incident.ts";

export type ChatAuthor = "Caller" | "Dispatcher";
export type ChatMessageView = { id: string; author: ChatAuthor; text: string; sentAtUtc: string };

export async function addChatMessage(options: {
  db: Db;
  clock: Clock;
  incidentId: string;
  author: ChatAuthor;
  text: string;
}): Promise<ChatMessageView> {
  const incident = await readIncident({ db: options.db, incidentId: options.incidentId });
  if (!incident) throw new AppError("IncidentNotFound", "No incident with that ID.");
  if (incident.closedAt) throw new AppError("IncidentClosed", "The incident is closed and accepts no change.");
  if (!incident.snapshot.caller.chat)
    throw new AppError("ChatNotActive", "Chat is not active for this incident: activate it first.");
  const row = await options.db.simulatedChatMessage.create({
    data: {
      id: randomUUID(),
      incidentId: incident.id,
      author: options.author,
      text: options.text,
      sentAt: options.clock.now(),
    },
  });
  return view(row);
}

export async function listChatMessages(options: { db: Db; incidentId: string }): Promise<ChatMessageView[]> {
  const rows = await options.db.simulatedChatMessage.findMany({
    where: { incidentId: options.incidentId },
    orderBy: { sentAt: "asc" },
    take: 500,
  });
  return rows.map(view);
}

const view = (r: { id: string; author: string; text: string; sentAt: Date }): ChatMessageView => ({
  id: r.id,
  author: r.author as ChatAuthor,
  text: r.text,
  sentAtUtc: r.sentAt.toISOString(),
});

/** Per incident, when the caller last wrote (the portal list's unread marker compares it with what was seen). */
export async function lastCallerMessageTimes(options: { db: Db; incidentIds: string[] }): Promise<Map<string, string>> {
  if (options.incidentIds.length === 0) return new Map();
  const rows = await options.db.simulatedChatMessage.groupBy({
    by: ["incidentId"],
    where: { incidentId: { in: options.incidentIds }, author: "Caller" },
    _max: { sentAt: true },
  });
  return new Map(rows.flatMap((r) => (r._max.sentAt ? [[r.incidentId, r._max.sentAt.toISOString()] as const] : [])));
}
