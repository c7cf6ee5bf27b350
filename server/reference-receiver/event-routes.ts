// The v3 event routes of the receiver: the contract's route table
// (webhook-contracts/v3/routes.ts: method, path, body), each by its flag — the
// event's one name, which the receiver's handlers branch on — and by the wire
// path /about declares it under (`created`, `caller.newLocation`:
// capability-flags.ts), which it records and checks declarations by, and its
// path split for matching.
import type { z } from "zod";
import { flagPathOf, V3_FLAGS, type V3Flag, type V3FlagPath } from "../webhook-contracts/v3/capability-flags.ts";
import { V3_ROUTES, v3PathTemplate, type V3Route } from "../webhook-contracts/v3/routes.ts";

export type EventRoute = {
  flag: V3Flag;
  method: V3Route["method"];
  /** The path template, e.g. /v3/incidents/{incidentId}/label. */
  path: string;
  /** The flag as /about declares it: what a record's route and an anomaly name. */
  flagPath: V3FlagPath;
  /** null: a route without a body (live video ended), whose body is not checked. */
  body: z.ZodType | null;
};
export type MatchedRoute = { route: EventRoute; params: { incidentId?: string; agencyId?: string } };

export const EVENT_ROUTES: readonly EventRoute[] = V3_FLAGS.map((flag) => {
  const { method, body } = V3_ROUTES[flag] as V3Route;
  return { flag, method, path: v3PathTemplate(flag), flagPath: flagPathOf(flag), body };
});

const ROUTE_OF_FLAG = new Map(EVENT_ROUTES.map((route) => [route.flag, route]));

/** The route a flag asks for (one route per flag). */
export const eventRouteOfFlag = (flag: V3Flag): EventRoute => ROUTE_OF_FLAG.get(flag)!;

/** Each route's path split once: every delivery is matched twice (when recorded and when applied). */
const PATTERNS = EVENT_ROUTES.map((route) => ({ route, pattern: route.path.split("/") }));

const paramName = (segment: string) => (segment.startsWith("{") ? segment.slice(1, -1) : undefined);

/** Finds the route for a method and a path below {receiver_url}; undefined when none. */
export function matchEventRoute(method: string, path: string): MatchedRoute | undefined {
  const parts = path.replace(/\/+$/, "").split("/");
  for (const { route, pattern } of PATTERNS) {
    if (route.method !== method) continue;
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((p, i) => {
      const name = paramName(p);
      return name ? ((params[name] = decodeURIComponent(parts[i]!)), parts[i] !== "") : p === parts[i];
    });
    if (matches) return { route, params };
  }
  return undefined;
}

/** The incident a delivery is about: the path's, or for a create the body's incident.id (read loosely, before validation). */
export function incidentIdOf(match: MatchedRoute, body: unknown): string | null {
  if (match.params.incidentId) return match.params.incidentId;
  const id = (body as { incident?: { id?: unknown } } | null)?.incident?.id;
  return typeof id === "string" ? id : null;
}
