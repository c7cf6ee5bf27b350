// The v2 receiver event routes (platform-interface.md, Versioning rule 7, the
// route mapping v2 → v3), and the psap.* scope each one requires of the
// PsapConnector token (spec, "Webhook receiver token validation", v1 and v2
// column: "the psap.* scope required by the endpoint"; the names are ours,
// documented in the generated JSON Schema document). v1 uses the same table
// under /v1 (webhook-contracts/v1/routes.ts).
//
// v2 has fewer routes than v3: every change no v2 route expresses (label,
// summary, call sign, patient, caller data, chat, collaboration, live video
// ended, …) is sent as POST /v2/incident with the whole current incident: the
// receiver replaces its copy (decision; a v2 incident POST is an upsert).
// Each route names its v3 counterpart by its flag (the v3 route table's key).
import type { V3Flag } from "../v3/capability-flags.ts";
import { V3_ROUTES, v3PathTemplate } from "../v3/routes.ts";

export type LegacyMajor = 1 | 2;
export type LegacyRoute = { method: "POST" | "PUT" | "PATCH"; sub: string | null; scope: string; v3: V3Flag };

/** /about with the legacy credential (discovery) asks for this scope. */
export const PSAP_READ_SCOPE = "psap.read";

export const LEGACY_ROUTES = {
  incident: { method: "POST", sub: null, scope: "psap.incident", v3: "incident.created" },
  close: { method: "POST", sub: "", scope: "psap.incident.close", v3: "incident.closed" },
  positionAppended: { method: "POST", sub: "position", scope: "psap.incident.position", v3: "caller.newLocation" },
  positionReplaced: { method: "PUT", sub: "position", scope: "psap.incident.position", v3: "caller.trackReplaced" },
  psap: { method: "POST", sub: "psap", scope: "psap.incident.psap", v3: "involvedAgency.invited" },
  batteryLevel: {
    method: "PATCH",
    sub: "battery-level",
    scope: "psap.incident.device",
    v3: "caller.deviceInfoChanged",
  },
  internetConnectionType: {
    method: "PATCH",
    sub: "internet-connection-type",
    scope: "psap.incident.device",
    v3: "caller.deviceInfoChanged",
  },
  startVideo: { method: "POST", sub: "start-video", scope: "psap.incident.video", v3: "caller.liveVideo.activated" },
} as const satisfies Record<string, LegacyRoute>;
export type LegacyRouteKey = keyof typeof LEGACY_ROUTES;
export const LEGACY_ROUTE_KEYS = Object.keys(LEGACY_ROUTES) as LegacyRouteKey[];

/** The v3 operation a route stands for, e.g. "POST /v3/incidents/{incidentId}/closed" (the JSON Schema document). */
export function v3CounterpartOf(key: LegacyRouteKey): string {
  const v3 = LEGACY_ROUTES[key].v3;
  const operation = `${V3_ROUTES[v3].method} ${v3PathTemplate(v3)}`;
  return key === "incident" ? `${operation} (and every change without a v2 route)` : operation;
}

/** The path template below {receiver_url}: /v2/incident, /v2/incident/{incidentId}, /v2/incident/{incidentId}/position, … */
export function legacyTemplate(key: LegacyRouteKey, major: LegacyMajor): string {
  const { sub } = LEGACY_ROUTES[key];
  if (sub === null) return `/v${major}/incident`;
  return sub === "" ? `/v${major}/incident/{incidentId}` : `/v${major}/incident/{incidentId}/${sub}`;
}

export function legacyPath(key: LegacyRouteKey, major: LegacyMajor, incidentId: string): string {
  return legacyTemplate(key, major).replace("{incidentId}", incidentId);
}

/** The route of a method and path below {receiver_url}, for the receiver; undefined when none. */
export function matchLegacyRoute(
  method: string,
  path: string,
): { key: LegacyRouteKey; major: LegacyMajor; incidentId: string | null } | undefined {
  const m = /^\/v([12])\/incident(?:\/([^/]+)(?:\/([a-z-]+))?)?\/?$/.exec(path);
  if (!m) return undefined;
  const major = Number(m[1]) as LegacyMajor;
  const incidentId = m[2] ? decodeURIComponent(m[2]) : null;
  const sub = incidentId === null ? null : (m[3] ?? "");
  const key = LEGACY_ROUTE_KEYS.find((k) => LEGACY_ROUTES[k].method === method && LEGACY_ROUTES[k].sub === sub);
  return key ? { key, major, incidentId } : undefined;
}
