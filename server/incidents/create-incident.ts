// Creates an incident (inbound POST /v1/incidents, a simulated caller, the seed)
// in one transaction with its involved agencies and its incident.created record.
// Repeats are decided by the database: INSERT … ON CONFLICT DO NOTHING on the id,
// so of N concurrent requests for one id exactly one inserts; the others read
// the committed row and match it (200) or not (409) — never rewriting it.
import { randomUUID } from "node:crypto";
import type { Clock } from "../platform/clock/clock.ts";
import { AppError } from "../platform/errors.ts";
import { notifyChangeSubscribers } from "./change-record.ts";
import { inTransaction, type Db } from "./db-handle.ts";
import { emptyInternal, type IncidentState, type Purpose, type RoutingMode } from "./incident-state.ts";
import { readIncident } from "./read-incident.ts";
import { incidentOpenUrl } from "./portal-urls.ts";
import { recordChanges } from "./record-changes.ts";
import { emptyCaller, type TGeoPoint, type TIncidentSnapshotV3, type TTrack } from "./snapshot.schema.ts";

export type CreateIncidentOptions = {
  db: Db;
  clock: Clock;
  portalUrl: string;
  /** requestedIncidentId; a fresh UUID when absent (then every call creates). */
  id?: string;
  purpose: Purpose;
  routingMode: RoutingMode | null;
  /** The token agency of POST /v1/incidents (repeat matching); null for simulated callers. */
  createdByAgencyId: string | null;
  /** The responsible agencies, each involved as Owner; the first is the incident's owner. */
  agencyIds: string[];
  phoneNumber: string | null;
  /** Becomes the first position of the Entered track (a Known location). */
  enteredLocation?: TGeoPoint;
  /** Further tracks a simulated caller starts with (e.g. an AML fix). */
  tracks?: TTrack[];
  label?: string | null;
  summary?: string | null;
  callSign?: string | null;
  callId?: string | null;
  actor: string;
  /** Decides whether an existing incident with this id is a matching repeat (else 409 IncidentAlreadyExists). */
  matchesRepeat?: (existing: IncidentState) => boolean;
};

export type CreatedIncident = { created: boolean; incident: IncidentState };

export async function createIncident(options: CreateIncidentOptions): Promise<CreatedIncident> {
  const id = options.id ?? randomUUID();
  const now = options.clock.now();
  return inTransaction(options.db, async (tx) => {
    const agencies = await tx.agency.findMany({ where: { id: { in: options.agencyIds } }, select: { id: true, displayName: true } });
    const byId = new Map(agencies.map((a) => [a.id, a]));
    const owners = options.agencyIds.map((a) => byId.get(a)).filter((a) => a !== undefined);
    if (owners.length === 0) throw new AppError("AgencyContextRequired", 403, "No known agency can own this incident.");

    const snapshot = buildSnapshot({ ...options, id, now, owners });
    const inserted = await tx.incident.createMany({
      data: [{
        id, ownerAgencyId: owners[0]!.id, createdByAgencyId: options.createdByAgencyId, routingMode: options.routingMode,
        purpose: options.purpose, callId: options.callId ?? null, version: 1, lastSeq: 1, createdAt: now, snapshot, internal: emptyInternal(),
      }],
      skipDuplicates: true,
    });
    if (inserted.count === 0) return { created: false, incident: await matchRepeat(tx, id, options) };

    await tx.incidentAgency.createMany({ data: owners.map((a) => ({ incidentId: id, agencyId: a.id, collaboration: "Owner" as const, updatedAt: now })) });
    const incident: IncidentState = {
      id, ownerAgencyId: owners[0]!.id, createdByAgencyId: options.createdByAgencyId, routingMode: options.routingMode, purpose: options.purpose,
      version: 1, lastSeq: 0, closedAt: null, liveVideoEndsAt: null, snapshot, internal: emptyInternal(), collaboration: "Owner",
    };
    const [change] = await recordChanges({ tx, incident, kinds: [{ kind: "incident.created" }], now, actor: options.actor, created: true });
    await notifyChangeSubscribers(tx, change!);
    return { created: true, incident };
  });
}

async function matchRepeat(tx: Db, id: string, options: CreateIncidentOptions): Promise<IncidentState> {
  const existing = await readIncident({ db: tx, incidentId: id, agencyId: options.createdByAgencyId ?? undefined });
  if (existing && options.matchesRepeat?.(existing)) return existing;
  throw new AppError("IncidentAlreadyExists", 409, "requestedIncidentId is already taken by an incident that does not match this request. Continue on /v1/incidents/{incidentId} if it is yours.");
}

function buildSnapshot(o: CreateIncidentOptions & { id: string; now: Date; owners: Array<{ id: string; displayName: string }> }): TIncidentSnapshotV3 {
  const at = o.now.toISOString();
  const caller = emptyCaller(o.phoneNumber);
  if (o.enteredLocation) {
    caller.tracks.push({ source: "Entered", track: [{ type: "Known", ...o.enteredLocation, capturedAtUtc: at, receivedAtUtc: at, source: "Entered" }] });
  }
  for (const t of o.tracks ?? []) if (t.track.length > 0) caller.tracks.push(t);
  return {
    id: o.id, purpose: o.purpose, openUrl: incidentOpenUrl(o.portalUrl, o.id), createdAtUtc: at, caller,
    involvedAgencies: o.owners.map((a) => ({ id: a.id, displayName: a.displayName, collaboration: "Owner" as const, invitedBy: null })),
    label: o.label ?? null, summary: o.summary ?? null, callSign: o.callSign ?? null, patient: { description: null },
  };
}
