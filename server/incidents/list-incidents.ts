// Incident lists for the dashboard's Incidents page and the dispatcher portal:
// newest first, filtered by open/closed, purpose and involved agency. Each row
// carries `version` so a live list (polled every second) can tell what moved.
import { z } from "zod";
import type { Db } from "./db-handle.ts";
import { REPORTED_PROBLEMS, type TIncidentSnapshotV3 } from "./snapshot.schema.ts";

export const ZListIncidentsInput = z.object({
  state: z.enum(["open", "closed", "all"]).default("all"),
  purpose: z.enum(["Real", "Test", "Demo"]).optional(),
  /** Involved in any collaboration state (owner, invited, accepted, declined). */
  agencyId: z.uuid().optional(),
  take: z.number().int().min(1).max(500).default(100),
});
export type TListIncidentsInput = z.input<typeof ZListIncidentsInput>;

export type IncidentListRow = {
  id: string;
  purpose: "Real" | "Test" | "Demo";
  label: string | null;
  /** The reported problems that are true (caller.reportedProblems), in the spec's order: a title when there is no label. */
  problems: Array<(typeof REPORTED_PROBLEMS)[number]>;
  createdAtUtc: string;
  closedAtUtc: string | null;
  version: number;
  changeCount: number;
  callerName: string | null;
  callerPhone: string | null;
  agencies: Array<{ id: string; displayName: string; collaboration: string }>;
  sources: string[];
  chat: boolean;
  liveVideo: "Active" | "Ended" | null;
};

export async function listIncidents(options: { db: Db; input: TListIncidentsInput }): Promise<IncidentListRow[]> {
  const input = ZListIncidentsInput.parse(options.input);
  const rows = await options.db.incident.findMany({
    where: {
      ...(input.state === "open" ? { closedAt: null } : input.state === "closed" ? { closedAt: { not: null } } : {}),
      ...(input.purpose ? { purpose: input.purpose } : {}),
      ...(input.agencyId ? { agencies: { some: { agencyId: input.agencyId } } } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: input.take,
  });
  return rows.map((row) => {
    const s = row.snapshot as TIncidentSnapshotV3;
    return {
      id: row.id,
      purpose: row.purpose,
      label: s.label,
      problems: REPORTED_PROBLEMS.filter((p) => s.caller.reportedProblems[p]),
      createdAtUtc: row.createdAt.toISOString(),
      closedAtUtc: row.closedAt?.toISOString() ?? null,
      version: row.version,
      changeCount: row.lastSeq,
      callerName: s.caller.fullName,
      callerPhone: s.caller.phoneNumber,
      agencies: s.involvedAgencies.map((a) => ({
        id: a.id,
        displayName: a.displayName,
        collaboration: a.collaboration,
      })),
      sources: s.caller.tracks.map((t) => t.source),
      chat: s.caller.chat !== null,
      liveVideo: s.caller.liveVideo?.state ?? null,
    };
  });
}

export type IncidentChangeView = { seq: number; kind: string; payload: unknown; producedAtUtc: string; actor: string };

/** Every change record of one incident, oldest first (the timeline). */
export async function listIncidentChanges(options: { db: Db; incidentId: string }): Promise<IncidentChangeView[]> {
  const rows = await options.db.incidentChange.findMany({
    where: { incidentId: options.incidentId },
    orderBy: { seq: "asc" },
    select: { seq: true, kind: true, payload: true, producedAt: true, actor: true },
  });
  return rows.map((r) => ({
    seq: r.seq,
    kind: r.kind,
    payload: r.payload,
    producedAtUtc: r.producedAt.toISOString(),
    actor: r.actor,
  }));
}
