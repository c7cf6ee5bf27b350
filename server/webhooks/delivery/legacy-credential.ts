// What a v1/v2 delivery (issue 8) needs beyond a v3 one: a PsapConnector token
// with the psap.* scope its route requires (spec, "Webhook receiver token
// validation", v1 and v2 column), and no Service-Request-* headers (spec,
// "Events": v1 and v2 carry requestId and requestTimeStampUtc in the body instead).
import { v3SourcesOf } from "../contracts/v2/render-incident.ts";
import type { TPositionSourceV2 } from "../contracts/v2/incident.schema.ts";
import { LEGACY_ROUTES, matchLegacyRoute } from "../contracts/v2/routes.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";

export function legacyCredential(method: string, path: string): { scope: string; headers: Record<string, string> } | null {
  const route = matchLegacyRoute(method, path);
  if (!route) return null;
  return { scope: LEGACY_ROUTES[route.key].scope, headers: { "content-type": "application/json", "user-agent": `IncidentPlatformWorkbench-Webhooks/${route.major}` } };
}

/**
 * When a v1/v2 create (POST incident) or whole-track PUT expires, the receiver
 * may not hold those tracks in full: the lane forgets them, as for v3. For a PUT
 * position that is every v3 source of the merged v2 track.
 */
export function forgetLegacyTrack(row: Pick<ClaimedDelivery, "method" | "path" | "body">): ((sources: string[]) => string[]) | null {
  const route = matchLegacyRoute(row.method, row.path);
  if (route?.key === "incident") return (sources) => sources.filter((s) => s.startsWith("@")); // keep the contract marker
  if (route?.key === "positionReplaced") {
    const gone = new Set<string>(v3SourcesOf((row.body as { positionSource: TPositionSourceV2 }).positionSource));
    return (sources) => sources.filter((s) => !gone.has(s));
  }
  return null;
}
