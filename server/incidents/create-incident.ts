// Creates an incident (inbound POST /v1/incidents, a simulated caller, the seed)
// in one transaction with its involved agencies and its incident.created record.
// Repeats are decided by the database: INSERT … ON CONFLICT DO NOTHING on the id,
// so of N concurrent requests for one id exactly one inserts; the others read
// the committed row and match it (200) or not (409) — never rewriting it.
import type { IncidentChange } from "./change-record.ts";
import { randomUUID } from "node:crypto";
import type { Clock } from "../platform/clock/clock.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { inSqlTransaction, type SqlTx } from "../platform/db/sql-transaction.ts";
import { AppError } from "../platform/errors.ts";
import { isUuid } from "./db-handle.ts";
import { emptyInternal, type IncidentState, type Purpose, type RoutingMode } from "./incident-state.ts";
import { readIncident } from "./read-incident.ts";
import { incidentOpenUrl } from "./portal-urls.ts";
import { buildChanges, finishWithRecord, planSubscribers } from "./record-changes.ts";
import { activeTracing, type TraceContext } from "../platform/tracing/tracing.ts";
import { traceCreation } from "./trace-change.ts";
import { toStoredSnapshot, trackDelta } from "./track-storage.ts";
import { emptyCaller, type TGeoPoint, type TIncidentSnapshotV3, type TTrack } from "./snapshot.schema.ts";

export type CreateIncidentOptions = {
  db: DbClient;
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
  /** With tracing on: the parent of the creation's span (the request's). */
  trace?: TraceContext;
  /** Told the change records once they are committed (none for a matching repeat). */
  onRecorded?: (changes: readonly IncidentChange[]) => void;
};

export type CreatedIncident = { created: boolean; incident: IncidentState };

export function createIncident(options: CreateIncidentOptions): Promise<CreatedIncident> {
  const tracing = activeTracing();
  if (tracing === null) return createIncidentNow(options, options.id ?? randomUUID());
  const id = options.id ?? randomUUID();
  return traceCreation(tracing, options.trace, id, options.actor, (trace) => createIncidentNow(options, id, trace));
}

async function createIncidentNow(
  options: CreateIncidentOptions,
  id: string,
  trace?: TraceContext,
): Promise<CreatedIncident> {
  const now = options.clock.now();
  const agencyIds = options.agencyIds.filter(isUuid);
  let recorded: IncidentChange[] = [];
  const created = await inSqlTransaction(options.db, async (tx): Promise<IncidentState | null> => {
    const agencies = agencyIds.length
      ? await tx.query<{ id: string; displayName: string }>(Prisma.sql`
      SELECT id::text AS id, "displayName" FROM "Agency" WHERE id = ANY(${agencyIds}::uuid[])`)
      : [];
    const byId = new Map(agencies.map((a) => [a.id, a]));
    const owners = agencyIds.map((a) => byId.get(a)).filter((a) => a !== undefined);
    if (owners.length === 0) throw new AppError("AgencyContextRequired", "No known agency can own this incident.");

    const snapshot = buildSnapshot({ ...options, id, now, owners });
    const incident: IncidentState = {
      id,
      ownerAgencyId: owners[0]!.id,
      createdByAgencyId: options.createdByAgencyId,
      routingMode: options.routingMode,
      purpose: options.purpose,
      version: 1,
      lastSeq: 0,
      closedAt: null,
      liveVideoEndsAt: null,
      snapshot,
      internal: emptyInternal(),
      collaboration: "Owner",
    };
    if (!(await insertIncident(tx, incident, { callId: options.callId ?? null, now }))) return null;

    const changes = buildChanges({
      incident,
      kinds: [{ kind: "incident.created" }],
      now,
      actor: options.actor,
      created: true,
    });
    recorded = changes;
    const plans = await planSubscribers(tx, changes, undefined, undefined, trace);
    finishWithRecord(
      tx,
      { incident, changes, plans, delta: trackDelta(incident.snapshot.caller.tracks, undefined) },
      { created: true },
    );
    return incident;
  });
  if (created) options.onRecorded?.(recorded);
  return created ? { created: true, incident: created } : { created: false, incident: await matchRepeat(options, id) };
}

/**
 * The incident row and its owners in one statement; false when the id exists
 * (ON CONFLICT DO NOTHING: of concurrent creates of one id exactly one inserts,
 * the others wait for its commit and then see the conflict).
 */
async function insertIncident(
  tx: SqlTx,
  incident: IncidentState,
  o: { callId: string | null; now: Date },
): Promise<boolean> {
  const owners = incident.snapshot.involvedAgencies.map((a) => a.id);
  const rows = await tx.query<{ id: string }>(Prisma.sql`
    WITH inserted AS (
      INSERT INTO "Incident" (id, "ownerAgencyId", "createdByAgencyId", "routingMode", purpose, "callId", version, "lastSeq", "createdAt", snapshot, internal)
      VALUES (${incident.id}::uuid, ${incident.ownerAgencyId}::uuid, ${incident.createdByAgencyId}::uuid, ${incident.routingMode}::"RoutingMode",
              ${incident.purpose}::"IncidentPurpose", ${o.callId}::uuid, 1, 1, ${o.now}::timestamptz, ${JSON.stringify(toStoredSnapshot(incident.snapshot))}::jsonb, ${JSON.stringify(incident.internal)}::jsonb)
      ON CONFLICT (id) DO NOTHING
      RETURNING id
    ), owners AS (
      INSERT INTO "IncidentAgency" ("incidentId", "agencyId", collaboration, "updatedAt")
      SELECT inserted.id, a.id, 'Owner', ${o.now}::timestamptz FROM inserted, unnest(${owners}::uuid[]) AS a(id)
    )
    SELECT id::text AS id FROM inserted`);
  return rows.length === 1;
}

/** After our transaction: the conflicting row had committed before ON CONFLICT reported it. */
async function matchRepeat(options: CreateIncidentOptions, id: string): Promise<IncidentState> {
  const existing = await readIncident({
    db: options.db,
    incidentId: id,
    agencyId: options.createdByAgencyId ?? undefined,
  });
  if (existing && options.matchesRepeat?.(existing)) return existing;
  throw new AppError(
    "IncidentAlreadyExists",
    "requestedIncidentId is already taken by an incident that does not match this request. Continue on /v1/incidents/{incidentId} if it is yours.",
  );
}

function buildSnapshot(
  o: CreateIncidentOptions & { id: string; now: Date; owners: Array<{ id: string; displayName: string }> },
): TIncidentSnapshotV3 {
  const at = o.now.toISOString();
  const caller = emptyCaller(o.phoneNumber);
  if (o.enteredLocation) {
    caller.tracks.push({
      source: "Entered",
      track: [{ type: "Known", ...o.enteredLocation, capturedAtUtc: at, receivedAtUtc: at, source: "Entered" }],
    });
  }
  for (const t of o.tracks ?? []) if (t.track.length > 0) caller.tracks.push(t);
  return {
    id: o.id,
    purpose: o.purpose,
    openUrl: incidentOpenUrl(o.portalUrl, o.id),
    createdAtUtc: at,
    caller,
    involvedAgencies: o.owners.map((a) => ({
      id: a.id,
      displayName: a.displayName,
      collaboration: "Owner" as const,
      invitedBy: null,
    })),
    label: o.label ?? null,
    summary: o.summary ?? null,
    callSign: o.callSign ?? null,
    patient: { description: null },
  };
}
