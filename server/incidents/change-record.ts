// The contract between the incident aggregate (inbound API, simulator) and its
// consumers (the webhook engine's planner, the dashboard's live view).
//
// Every accepted change to an incident is recorded as one IncidentChange, in the
// same transaction as the change itself, and handed — inside that transaction —
// to every registered subscriber. The webhook engine subscribes and plans its
// deliveries (transactional outbox), so a change and its deliveries commit or
// roll back together.
import type { Prisma } from "../platform/db/client.ts";
import type { TIncidentSnapshotV3, TLocation, TLocationSource } from "./snapshot.schema.ts";

/**
 * What changed. One kind per row of the spec's "Which change produces which
 * operation" table; the planner maps kinds to receiver routes per capability.
 */
export type IncidentChangeKind =
  | { kind: "incident.created" }
  | { kind: "incident.closed"; closedAtUtc: string }
  /** Caller data no specific route expresses: a data source linked, medical data, permanent residence, languages, contacts, email, insurance, reported problems. */
  | { kind: "caller.changed"; what: string }
  | { kind: "caller.fullNameChanged" }
  | { kind: "caller.phoneNumberChanged" }
  | { kind: "caller.deviceInfoChanged" }
  /** One location appended to the end of `source`'s track. */
  | { kind: "caller.locationAdded"; source: TLocationSource; location: TLocation }
  /** `source`'s whole track replaced (e.g. a coarse fix discarded for a precise one). */
  | { kind: "caller.trackReplaced"; source: TLocationSource }
  | { kind: "caller.chatActivated" }
  | { kind: "caller.liveVideoActivated" }
  | { kind: "caller.liveVideoEnded" }
  /** An agency newly involved (Pending invitation). */
  | { kind: "involvedAgency.invited"; agencyId: string }
  | { kind: "involvedAgency.collaborationChanged"; agencyId: string }
  | { kind: "labelChanged" }
  | { kind: "summaryChanged" }
  | { kind: "callSignChanged" }
  | { kind: "patient.descriptionChanged" };

export type IncidentChange = IncidentChangeKind & {
  incidentId: string;
  /** 1, 2, 3 … per incident, in commit order (the aggregate holds the incident row lock). */
  seq: number;
  /** When the platform produced the change (workbench clock): starts each event's one-hour window. */
  producedAt: Date;
  /** Who caused it: "inbound:<clientId>", "simulator", "system", … (shown in the timeline). */
  actor: string;
  /** The whole v3 snapshot after the change (every member present). */
  snapshot: TIncidentSnapshotV3;
};

export type ChangeSubscriber = (tx: Prisma.TransactionClient, change: IncidentChange) => Promise<void>;

// On globalThis, not in module scope: Next bundles app/ separately, so a change
// made through tRPC runs a second copy of this module, and must still reach the
// subscribers main.ts registered.
const SLOT = Symbol.for("incident-workbench.change-subscribers");
const holder = globalThis as typeof globalThis & { [SLOT]?: ChangeSubscriber[] };
const subscribers: ChangeSubscriber[] = (holder[SLOT] ??= []);

/** Registers a consumer called inside the change's transaction (the webhook planner does). */
export function subscribeToChanges(subscriber: ChangeSubscriber): () => void {
  subscribers.push(subscriber);
  return () => {
    const i = subscribers.indexOf(subscriber);
    if (i >= 0) subscribers.splice(i, 1);
  };
}

/** Called by the aggregate after writing the change record, inside the same transaction. */
export async function notifyChangeSubscribers(tx: Prisma.TransactionClient, change: IncidentChange): Promise<void> {
  for (const subscriber of subscribers) await subscriber(tx, change);
}
