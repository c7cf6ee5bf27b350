// What a v1/v2 delivery (the legacy contracts) needs beyond a v3 one: a PsapConnector token
// with the psap.* scope its route requires (spec, "Webhook receiver token
// validation", v1 and v2 column), and no Service-Request-* headers (spec,
// "Events": v1 and v2 carry requestId and requestTimeStampUtc in the body instead).
import { LEGACY_ROUTES, matchLegacyRoute } from "../../webhook-contracts/v2/routes.ts";

export function legacyCredential(
  method: string,
  path: string,
): { scope: string; headers: Record<string, string> } | null {
  const route = matchLegacyRoute(method, path);
  if (!route) return null;
  return {
    scope: LEGACY_ROUTES[route.key].scope,
    headers: { "content-type": "application/json", "user-agent": `IncidentPlatformWorkbench-Webhooks/${route.major}` },
  };
}

/**
 * The headers of an event request, without its token: v3 carries Service-Request-Id and
 * Service-Request-Timestamp (fixed when the event was produced); v1/v2 carry them in the body.
 * `legacyScope`: the psap.* scope a v1/v2 route's PsapConnector token needs (null: v3, Publisher).
 */
export function eventRequestHeaders(event: { method: string; path: string; requestId: string; producedAt: Date }): {
  headers: Record<string, string>;
  legacyScope: string | null;
} {
  const legacy = legacyCredential(event.method, event.path);
  if (legacy) return { headers: legacy.headers, legacyScope: legacy.scope };
  return {
    headers: {
      "content-type": "application/json",
      "service-request-id": event.requestId,
      "service-request-timestamp": event.producedAt.toISOString(),
      "user-agent": "IncidentPlatformWorkbench-Webhooks/3",
    },
    legacyScope: null,
  };
}
