// How a replica is stored: its snapshot with every track emptied (ReceiverIncident), and one row per
// track position (ReceiverTrackPosition). An append then costs one inserted row whatever the track's
// length; a snapshot holding the whole track was read, cloned, serialised and rewritten at every
// delivery, so a receiver slowed down as its tracks grew.
//
// Processing (process-deliveries.ts) applies deliveries to the stored snapshot as the pure
// applyEvent / applyLegacyEvent do to a whole one: each track then holds only the positions not yet
// stored. A TrackLedger follows which sources an applied delivery replaced (their stored rows go) and
// where the next stored index of each source is. Readers (list-receivers.ts) get whole replicas back
// through composeReplicas.
import type { TIncidentSnapshotV3 } from "../incidents/snapshot.schema.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { sqlQuery } from "../platform/db/sql-transaction.ts";
import type { LegacyRouteKey } from "../webhook-contracts/v2/routes.ts";
import type { Replica } from "./apply-event.ts";
import type { V3Flag } from "../webhook-contracts/v3/capability-flags.ts";

/** A v3 track entry names its source `source`, a v1/v2 one `positionSource`. */
type TrackEntry = { source?: string; positionSource?: string; track: unknown[] };
type WithTracks = { caller: { tracks: TrackEntry[] } };

const tracksOf = (snapshot: unknown): TrackEntry[] => (snapshot as WithTracks).caller.tracks;
const sourceOf = (entry: TrackEntry): string => (entry.source ?? entry.positionSource)!;

/** What an applied delivery did to the tracks: replaced all, replaced one source's, or appended to one. */
export type TrackEffect = { kind: "all" } | { kind: "source"; source: string } | { kind: "append" } | null;

export function trackEffectOf(route: { flag: V3Flag } | { legacyKey: LegacyRouteKey }, body: unknown): TrackEffect {
  const b = body as Record<string, unknown>;
  if ("flag" in route) {
    if (route.flag === "incident.created" || route.flag === "caller.changed") return { kind: "all" };
    if (route.flag === "caller.trackReplaced") return { kind: "source", source: b.source as string };
    if (route.flag === "caller.newLocation") return { kind: "append" };
    return null;
  }
  if (route.legacyKey === "incident") return { kind: "all" };
  if (route.legacyKey === "positionReplaced") return { kind: "source", source: b.positionSource as string };
  if (route.legacyKey === "positionAppended") return { kind: "append" };
  return null;
}

/** Where each source's positions start in memory: after its stored rows, or at 0 once replaced. */
export class TrackLedger {
  private allReplaced = false;
  private readonly replaced = new Set<string>();
  constructor(private readonly storedLengths: Record<string, number>) {}

  record(effect: TrackEffect) {
    if (effect?.kind === "all") this.allReplaced = true;
    else if (effect?.kind === "source") this.replaced.add(effect.source);
  }

  /** Index of the source's first in-memory position. */
  base(source: string): number {
    return this.allReplaced || this.replaced.has(source) ? 0 : (this.storedLengths[source] ?? 0);
  }

  /** The stored rows that no longer belong to the replica, or null when none. */
  deletion(integrationKey: string, incidentId: string): Prisma.Sql | null {
    if (this.allReplaced)
      return Prisma.sql`DELETE FROM "ReceiverTrackPosition" WHERE "integrationKey" = ${integrationKey} AND "incidentId" = ${incidentId}`;
    if (this.replaced.size === 0) return null;
    return Prisma.sql`DELETE FROM "ReceiverTrackPosition" WHERE "integrationKey" = ${integrationKey}
      AND "incidentId" = ${incidentId} AND source = ANY(${[...this.replaced]}::text[])`;
  }
}

/** The stored form of a replica: its snapshot with empty tracks, the new positions and every source's length. */
export function splitTracks(replica: Replica, ledger: TrackLedger) {
  const positions: Array<{ source: string; n: number; location: unknown }> = [];
  const trackLengths: Record<string, number> = {};
  const snapshot = replica.snapshot as unknown as WithTracks;
  const tracks = tracksOf(snapshot).map((entry) => {
    const source = sourceOf(entry);
    const base = ledger.base(source);
    entry.track.forEach((location, i) => positions.push({ source, n: base + i, location }));
    trackLengths[source] = base + entry.track.length;
    return { ...entry, track: [] };
  });
  return {
    snapshot: { ...snapshot, caller: { ...snapshot.caller, tracks } },
    fullSources: replica.fullSources,
    closedAtUtc: replica.closedAtUtc,
    positions,
    trackLengths,
  };
}

/** Replicas with their tracks filled from their stored positions (one query for all of them). */
export async function composeReplicas<T extends { incidentId: string; snapshot: TIncidentSnapshotV3 }>(
  db: DbClient,
  integrationKey: string,
  replicas: T[],
): Promise<T[]> {
  if (replicas.length === 0) return replicas;
  // On the pg pool: pg parses jsonb with JSON.parse, so every double comes back as it was stored.
  const rows = await sqlQuery<{ incidentId: string; source: string; location: unknown }>(
    db,
    Prisma.sql`SELECT "incidentId", source, location FROM "ReceiverTrackPosition"
      WHERE "integrationKey" = ${integrationKey} AND "incidentId" = ANY(${replicas.map((r) => r.incidentId)}::text[])
      ORDER BY "incidentId", source, n`,
  );
  const byTrack = new Map<string, unknown[]>();
  for (const row of rows) {
    const key = `${row.incidentId}\u0000${row.source}`;
    const track = byTrack.get(key) ?? [];
    track.push(row.location);
    byTrack.set(key, track);
  }
  return replicas.map((replica) => {
    const snapshot = replica.snapshot as unknown as WithTracks;
    const tracks = tracksOf(snapshot).map((entry) => ({
      ...entry,
      track: byTrack.get(`${replica.incidentId}\u0000${sourceOf(entry)}`) ?? [],
    }));
    return { ...replica, snapshot: { ...snapshot, caller: { ...snapshot.caller, tracks } } as never };
  });
}
