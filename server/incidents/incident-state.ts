// The aggregate's state as domain code sees it: the row's columns plus the
// parsed v3 snapshot and internal extras.
import type { TIncidentSnapshotV3, TLocation } from "./snapshot.schema.ts";

export type CollaborationState = "Owner" | "Pending" | "Accepted" | "Declined";
export type Purpose = "Real" | "Test" | "Demo";
export type RoutingMode = "TokenAgency" | "Jurisdiction";

/**
 * A caller's temporary-information warning (v3 has no member for it: merged into
 * medicData.notes.caller while unexpired, temporary-information.ts), with the caller's own notes
 * to restore on expiry and whether medicData existed before the warning. The frozen v2 contract
 * has a member for it (webhook-contracts/v2/render-incident.ts, decision 0063).
 */
export type TemporaryWarning = {
  warning: string;
  expiresAtUtc: string;
  callerNotes: string | null;
  medicDataAdded: boolean;
};

/** Kept beside the snapshot, never delivered as such: Apple EED data exists internally only (spec "Location variants"). */
export type IncidentInternal = {
  appleEedTrack: Array<Omit<Extract<TLocation, { type: "Measured" }>, "source">>;
  temporaryInformation?: TemporaryWarning;
};

export const emptyInternal = (): IncidentInternal => ({ appleEedTrack: [] });

export type IncidentState = {
  id: string;
  ownerAgencyId: string;
  createdByAgencyId: string | null;
  routingMode: RoutingMode | null;
  purpose: Purpose;
  version: number;
  lastSeq: number;
  closedAt: Date | null;
  liveVideoEndsAt: Date | null;
  snapshot: TIncidentSnapshotV3;
  internal: IncidentInternal;
  /** The acting agency's involvement (null: not involved, or no agency given). */
  collaboration: CollaborationState | null;
};

/** Owner and Accepted agencies act on an incident; the rest see 404 (spec rule 5). */
export const canAct = (c: CollaborationState | null) => c === "Owner" || c === "Accepted";

/** The ETag of an incident: its version, as a strong entity tag. */
export const etagOf = (version: number) => `"${version}"`;

/**
 * Parses If-Match (RFC 9110 §13.1.1) into the versions it names; `*` matches any.
 * Anything unparseable names no version, so it can only fail (409 UpdateConflict).
 */
export function parseIfMatch(header: string | undefined): { any: true } | { versions: number[] } | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === "*") return { any: true };
  const versions = header
    .split(",")
    .map((t) => /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(t)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number);
  return { versions };
}
