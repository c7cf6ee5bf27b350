// PURE: the whole-track PUT that replaces a queued append (decide-expired-track.ts),
// rendered by the contracts' own renderers from the snapshot of that append's
// change, so the body is exactly what the planner would have planned had the
// receiver not held the track. The row keeps its Service-Request-Id and
// production time (v1/v2 carry both in the body envelope, so they are passed in).
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import { renderLegacyBody } from "../../webhook-contracts/v2/render-event-body.ts";
import { LEGACY_ROUTES, legacyPath } from "../../webhook-contracts/v2/routes.ts";
import { renderEventBody } from "../../webhook-contracts/v3/render-event-body.ts";
import { routePath, V3_ROUTES, v3EventName } from "../../webhook-contracts/v3/routes.ts";
import type { TrackRef } from "./decide-expired-track.ts";

export type RenderedEvent = { method: string; path: string; eventName: string; body: unknown };

export function renderWholeTrack(
  track: TrackRef,
  input: { snapshot: TIncidentSnapshotV3; requestId: string; producedAt: Date },
): RenderedEvent {
  const { snapshot } = input;
  if (track.contract === 3) {
    return {
      method: V3_ROUTES["caller.trackReplaced"].method,
      path: routePath("caller.trackReplaced", snapshot.id),
      eventName: v3EventName("caller.trackReplaced"),
      body: renderEventBody("caller.trackReplaced", { snapshot, source: track.source }),
    };
  }
  const body = renderLegacyBody("positionReplaced", {
    snapshot,
    requestId: input.requestId,
    producedAt: input.producedAt,
    positionSource: track.positionSource,
  });
  return {
    method: LEGACY_ROUTES.positionReplaced.method,
    path: legacyPath("positionReplaced", track.contract, snapshot.id),
    eventName: `v${track.contract} positionReplaced`,
    body,
  };
}
