// The incidents this process wrote last, as its optimistic write left them: the
// next change of such an incident starts from here instead of the read statement
// (docs/decisions/0041). Nothing here is trusted: the write still checks that the
// row is the version this process wrote (its xmin) and that the integrations'
// planning inputs did not move since they were read (planning version); a change
// that finds either moved, or that a check refused on remembered state, is read
// and prepared again.
import type { IncidentInternal, IncidentState } from "./incident-state.ts";
import type { ReadIncident } from "./read-incidents.ts";
import type { TIncidentSnapshotV3 } from "./snapshot.schema.ts";

/** How many incidents are remembered (least recently written first out): ~2–4 KB each. */
const CAPACITY = 2_000;

/** The row's own columns, as the record statement sent them (JSON, so every use gets a private copy). */
type StoredState = {
  version: number;
  lastSeq: number;
  snapshot: TIncidentSnapshotV3;
  internal: IncidentInternal;
  closedAt: string | null;
  liveVideoEndsAt: string | null;
};

type Entry = {
  /** The version this process wrote: the write applies only while the row is still it. */
  xmin: string;
  /** The acting agency the involvement below is for (null: none was given). */
  agencyId: string | null;
  collaboration: IncidentState["collaboration"];
  fixed: Pick<IncidentState, "id" | "ownerAgencyId" | "createdByAgencyId" | "routingMode" | "purpose">;
  /** JSON of StoredState. */
  state: string;
  /** Each change subscriber's prefetch as a read after the write would find it, by subscriber index. */
  prefetched: unknown[];
  /** The subscribers those are for: a change made while others are registered reads. */
  subscribers: readonly unknown[];
  planningVersion: string;
};

export class RecentIncidents {
  private readonly entries = new Map<string, Entry>();

  /**
   * The incident as its last write left it, for this agency, with the xmin its next write must find
   * (undefined: read it). Taken out: only the change's own successful write puts it back.
   */
  take(incidentId: string, agencyId: string | undefined, subscribers: readonly unknown[]): ReadIncident | undefined {
    const entry = this.entries.get(incidentId);
    if (!entry) return undefined;
    this.entries.delete(incidentId);
    if (entry.agencyId !== (agencyId ?? null)) return undefined;
    if (entry.subscribers.length !== subscribers.length || entry.subscribers.some((s, i) => s !== subscribers[i]))
      return undefined;
    const state = JSON.parse(entry.state) as StoredState;
    return {
      ...entry.fixed,
      version: state.version,
      lastSeq: state.lastSeq,
      snapshot: state.snapshot,
      internal: state.internal,
      closedAt: state.closedAt === null ? null : new Date(state.closedAt),
      liveVideoEndsAt: state.liveVideoEndsAt === null ? null : new Date(state.liveVideoEndsAt),
      collaboration: entry.collaboration,
      prefetched: entry.prefetched,
      readXmin: entry.xmin,
      planningVersion: entry.planningVersion,
    };
  }

  remember(
    incident: IncidentState,
    options: {
      agencyId: string | undefined;
      xmin: string;
      state: string;
      prefetched: unknown[];
      subscribers: readonly unknown[];
      planningVersion: string;
    },
  ): void {
    this.entries.delete(incident.id); // inserted last: the Map's order is the eviction order
    this.entries.set(incident.id, {
      xmin: options.xmin,
      agencyId: options.agencyId ?? null,
      collaboration: incident.collaboration,
      fixed: {
        id: incident.id,
        ownerAgencyId: incident.ownerAgencyId,
        createdByAgencyId: incident.createdByAgencyId,
        routingMode: incident.routingMode,
        purpose: incident.purpose,
      },
      state: options.state,
      prefetched: options.prefetched,
      subscribers: [...options.subscribers],
      planningVersion: options.planningVersion,
    });
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(incidentId: string): void {
    this.entries.delete(incidentId);
  }

  get size(): number {
    return this.entries.size;
  }
}
