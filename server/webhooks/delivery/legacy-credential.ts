// What a v1/v2 delivery (issue 8) needs beyond a v3 one: a PsapConnector token
// with the psap.* scope its route requires (spec, "Webhook receiver token
// validation", v1 and v2 column), and no Service-Request-* headers (spec,
// "Events": v1 and v2 carry requestId and requestTimeStampUtc in the body instead).
import { LEGACY_ROUTES, matchLegacyRoute } from "../contracts/v2/routes.ts";

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
