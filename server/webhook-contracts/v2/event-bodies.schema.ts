// Bodies of the v2 (and v1) event routes. Every body carries requestId and
// requestTimeStampUtc (spec, "Events": v1 and v2 carry them in the body instead
// of the Service-Request-* headers; retries keep both). The rest of each body is
// not shown by the spec: ours mirror the v3 bodies of workbench-decisions.md
// with the v2 names (decision, in the JSON Schema document).
import { z } from "zod";
import { ZLiveVideo, ZUtcTimestamp } from "../../incidents/snapshot.schema.ts";
import {
  V2_CONNECTION_TYPES,
  ZIncidentV2,
  ZPositionSourceV2,
  ZPositionV2,
  ZPsapV2,
  ZTrackV2,
} from "./incident.schema.ts";
import type { LegacyRouteKey } from "./routes.ts";

export const ZLegacyEnvelope = {
  requestId: z.uuid().describe("delivery identifier; retries keep it; deduplicate on it"),
  requestTimeStampUtc: ZUtcTimestamp.describe("when the service produced the event; retries keep it"),
};

const body = <T extends z.ZodRawShape>(shape: T) => z.strictObject({ ...ZLegacyEnvelope, ...shape });

export const LEGACY_EVENT_BODIES = {
  incident: body({ incident: ZIncidentV2 }),
  close: body({ closedTimeUtc: ZUtcTimestamp }),
  positionAppended: body({ position: ZPositionV2 }),
  positionReplaced: body({ positionSource: ZPositionSourceV2, track: ZTrackV2.shape.track }),
  psap: body({ psap: ZPsapV2 }),
  batteryLevel: body({ batteryLevel: z.number().int().min(0).max(100).nullable() }),
  internetConnectionType: body({ internetConnectionType: z.enum(V2_CONNECTION_TYPES).nullable() }),
  startVideo: body({ liveVideo: ZLiveVideo }),
} as const satisfies Record<LegacyRouteKey, z.ZodType>;
