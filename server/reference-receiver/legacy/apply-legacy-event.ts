// The replica of a v1/v2 receiver: its own copy of the v2 incident, built only
// from the v1/v2 deliveries it received. Pure: (replica, delivery) → (replica,
// anomalies), like apply-event.ts for v3. The replica's snapshot is the v2
// incident (stored in ReceiverIncident.snapshot; `isTest` tells it from a v3 one).
import type { z } from "zod";
import type { TIncidentV2, TPositionV2, TTrackV2 } from "../../webhook-contracts/v2/incident.schema.ts";
import { LEGACY_EVENT_BODIES } from "../../webhook-contracts/v2/event-bodies.schema.ts";
import type { LegacyRouteKey } from "../../webhook-contracts/v2/routes.ts";
import { checkBody } from "../check-body.ts";

export type LegacyReplica = { snapshot: TIncidentV2; fullSources: string[]; closedAtUtc: string | null };
export type LegacyApplied = { replica: LegacyReplica | null; anomalies: string[] };

/** A stored replica snapshot is a v1/v2 one (v3 snapshots carry `purpose`, v2 ones `isTest`). */
export const isLegacySnapshot = (snapshot: unknown): snapshot is TIncidentV2 =>
  typeof snapshot === "object" && snapshot !== null && "isTest" in snapshot;

/** ReceiverIncident.purpose of a legacy replica: v1/v2 carry only isTest, so Real and Demo are indistinguishable. */
export const legacyPurpose = (snapshot: TIncidentV2) => (snapshot.isTest ? "Test" : "Real or Demo");

export function applyLegacyEvent(
  replica: LegacyReplica | null,
  delivery: { key: LegacyRouteKey; body: unknown },
): LegacyApplied {
  const checked = checkBody(LEGACY_EVENT_BODIES[delivery.key] as z.ZodType<unknown>, delivery.body);
  if (!checked.ok) return { replica, anomalies: checked.anomalies };
  const b = delivery.body as Record<string, unknown>;
  if (replica?.closedAtUtc) return { replica, anomalies: [`after-close:${delivery.key}`] };
  if (delivery.key === "incident") {
    // Create, or (decision) the whole incident again for a change no v2 route expresses: replace the copy.
    const snapshot = structuredClone(b.incident as TIncidentV2);
    return {
      replica: { snapshot, fullSources: snapshot.caller.tracks.map((t) => t.positionSource), closedAtUtc: null },
      anomalies: [],
    };
  }
  if (!replica) return { replica, anomalies: ["unknown-incident"] };
  const next = structuredClone(replica);
  const s = next.snapshot;
  const anomalies: string[] = [];
  switch (delivery.key) {
    case "close":
      next.closedAtUtc = b.closedTimeUtc as string;
      break;
    case "positionAppended": {
      const position = b.position as TPositionV2;
      if (!next.fullSources.includes(position.positionSource)) anomalies.push(`hole:${position.positionSource}`);
      const entry = s.caller.tracks.find((t) => t.positionSource === position.positionSource);
      if (entry) entry.track.push(position);
      else s.caller.tracks.push({ positionSource: position.positionSource, track: [position] });
      break;
    }
    case "positionReplaced": {
      const track = { positionSource: b.positionSource, track: b.track } as TTrackV2;
      const i = s.caller.tracks.findIndex((t) => t.positionSource === track.positionSource);
      if (i >= 0) s.caller.tracks[i] = track;
      else s.caller.tracks.push(track);
      if (!next.fullSources.includes(track.positionSource)) next.fullSources.push(track.positionSource);
      break;
    }
    case "psap": {
      const psap = b.psap as TIncidentV2["psaps"][number];
      const i = s.psaps.findIndex((p) => p.psapId === psap.psapId);
      if (i >= 0) s.psaps[i] = psap;
      else s.psaps.push(psap);
      break;
    }
    case "batteryLevel":
      s.deviceInfo.batteryLevel = b.batteryLevel as number | null;
      break;
    case "internetConnectionType":
      s.deviceInfo.internetConnectionType =
        b.internetConnectionType as TIncidentV2["deviceInfo"]["internetConnectionType"];
      break;
    case "startVideo":
      s.caller.liveVideo = b.liveVideo as TIncidentV2["caller"]["liveVideo"];
      break;
  }
  return { replica: next, anomalies };
}
