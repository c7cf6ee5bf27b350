// Renders one v2/v1 event body from the v3 snapshot after the change. Pure, and
// called while planning: what the outbox stores is exactly what is sent,
// envelope included (the planner fixes requestId before writing the row).
import type { TemporaryWarning } from "../../incidents/incident-state.ts";
import type { TIncidentSnapshotV3, TLocation } from "../../incidents/snapshot.schema.ts";
import type { TPositionSourceV2 } from "./incident.schema.ts";
import { renderDeviceInfo, renderIncidentV2, renderPosition, renderPsap, renderTracks } from "./render-incident.ts";
import type { LegacyRouteKey } from "./routes.ts";

export type LegacyRenderInput = {
  snapshot: TIncidentSnapshotV3;
  requestId: string;
  /** The event's production time: requestTimeStampUtc, and the reference for age. */
  producedAt: Date;
  location?: TLocation;
  positionSource?: TPositionSourceV2;
  agencyId?: string;
  closedAtUtc?: string;
  /** The caller's temporary-information warning after the change (IncidentChange), for the incident body. */
  temporary?: TemporaryWarning | null;
};

export function renderLegacyBody(key: LegacyRouteKey, input: LegacyRenderInput): Record<string, unknown> {
  const { snapshot: s, producedAt } = input;
  const envelope = { requestId: input.requestId, requestTimeStampUtc: producedAt.toISOString() };
  switch (key) {
    case "incident":
      return { ...envelope, incident: renderIncidentV2(s, producedAt, input.temporary ?? null) };
    case "close":
      return { ...envelope, closedTimeUtc: input.closedAtUtc };
    case "positionAppended":
      return { ...envelope, position: renderPosition(input.location!) };
    case "positionReplaced": {
      const track = renderTracks(s.caller.tracks).find((t) => t.positionSource === input.positionSource)?.track ?? [];
      return { ...envelope, positionSource: input.positionSource, track };
    }
    case "psap": {
      const agency = s.involvedAgencies.find((a) => a.id === input.agencyId);
      if (!agency) throw new Error(`agency ${input.agencyId} is not involved in incident ${s.id}`);
      return { ...envelope, psap: renderPsap(agency) };
    }
    case "batteryLevel":
      return { ...envelope, batteryLevel: renderDeviceInfo(s.caller.deviceInfo).batteryLevel };
    case "internetConnectionType":
      return { ...envelope, internetConnectionType: renderDeviceInfo(s.caller.deviceInfo).internetConnectionType };
    case "startVideo":
      return { ...envelope, liveVideo: s.caller.liveVideo };
  }
}
