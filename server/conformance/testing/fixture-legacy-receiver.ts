// The fixture receiver's v2 mode (its /about declares 2.x, or 1.x for /v1):
// with no faults a correct legacy receiver. It validates the PsapConnector
// token of every call against the workbench's JWKS (iss, alg, aud
// urn:service:agency:{agency}, sub, client_id, the route's psap.* scope —
// psap.read at /about — and lifetime; no typ, which v1/v2 leave out),
// deduplicates on the body's requestId, holds each v2 track and answers exactly 200.
//
// Stricter than the contract on purpose, like the v3 mode: a body that is not
// the route's v2 body is 400 and an append for a track it does not hold is 409,
// so a kit that hand-wrote bodies or sent a wrong sequence fails its own tests.
import { Hono, type Context } from "hono";
import type { Clock } from "../../platform/clock/clock.ts";
import {
  createWebhookTokenVerifier,
  psapConnectorRequirements,
  publisherRequirements,
  type TokenRequirements,
} from "../../reference-receiver/verify-webhook-token.ts";
import { LEGACY_EVENT_BODIES } from "../../webhook-contracts/v2/event-bodies.schema.ts";
import type { TPositionV2, TTrackV2 } from "../../webhook-contracts/v2/incident.schema.ts";
import { LEGACY_ROUTES, matchLegacyRoute, PSAP_READ_SCOPE } from "../../webhook-contracts/v2/routes.ts";
import { legacyMajorOf, type TAbout } from "../about.schema.ts";
import type { ReceiverFaults } from "./receiver-faults.ts";

type Options = {
  authUrl: string;
  agencyId: string;
  clock?: Clock;
  faults?: ReceiverFaults;
  about: TAbout;
  events: string[];
};

export function legacyFixtureApp(options: Options): Hono {
  const { authUrl, agencyId, clock, faults = {}, about, events } = options;
  const major = legacyMajorOf(about.version)!;
  const verifyToken = createWebhookTokenVerifier({ authUrl });
  const seenRequestIds = new Set<string>();
  const incidents = new Map<string, Map<string, TPositionV2[]>>();
  const ok = (c: Context) => c.body(null, faults.answers201 ? 201 : 200);

  const carries = async (c: Context, requirements: TokenRequirements) =>
    (
      await verifyToken({
        authorization: c.req.header("authorization"),
        now: clock?.now() ?? new Date(),
        ...requirements,
      })
    ).ok;
  const authenticate = async (c: Context, scope: string) =>
    faults.acceptsAnyToken || carries(c, psapConnectorRequirements(agencyId, scope));
  /** Only for the aboutPublisherOnly fault: the v3 credential at /about. */
  const isPublisher = (c: Context) => carries(c, publisherRequirements(agencyId));
  const refuse = (c: Context) =>
    c.json({ error: "invalid_token" }, 401, { "www-authenticate": 'Bearer error="invalid_token"' });

  const app = new Hono();
  app.get("/about", async (c) =>
    (await (faults.aboutPublisherOnly ? isPublisher(c) : authenticate(c, PSAP_READ_SCOPE))) ? c.json(about) : refuse(c),
  );
  app.get("/health", (c) => c.json({ status: "ok" }));
  app.on(["POST", "PUT", "PATCH"], "/*", async (c) => {
    const route = matchLegacyRoute(c.req.method, c.req.path);
    if (!route || route.major !== major)
      return c.json({ error: `no v${major} route ${c.req.method} ${c.req.path}` }, 404);
    if (!(await authenticate(c, LEGACY_ROUTES[route.key].scope))) return refuse(c);
    events.push(`${c.req.method} ${c.req.path}`);
    const parsed = LEGACY_EVENT_BODIES[route.key].safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ error: `not a v${major} ${route.key} body` }, 400);
    // v1/v2 carry the delivery identifier in the body: deduplicate on it.
    const { requestId } = parsed.data;
    if (seenRequestIds.has(requestId))
      return faults.noDedupe ? c.json({ error: "duplicate key requestId" }, 409) : ok(c);
    const answer = await apply(c, route.key, route.incidentId, parsed.data);
    if (answer.status < 300) seenRequestIds.add(requestId);
    return answer;
  });

  async function apply(
    c: Context,
    key: keyof typeof LEGACY_ROUTES,
    incidentId: string | null,
    body: Record<string, unknown>,
  ): Promise<Response> {
    const tracksOf = (id: string) => incidents.get(id) ?? incidents.set(id, new Map()).get(id)!;
    switch (key) {
      case "incident": {
        // The whole incident, for a create and for every change no v2 route expresses: replace the copy.
        const incident = body.incident as { id: string; caller: { tracks: TTrackV2[] } };
        if (faults.slowCreateMs) await new Promise((r) => setTimeout(r, faults.slowCreateMs));
        incidents.set(incident.id, new Map(incident.caller.tracks.map((t) => [t.positionSource, [...t.track]])));
        return ok(c);
      }
      case "positionReplaced":
        tracksOf(incidentId!).set(body.positionSource as string, [...(body.track as TPositionV2[])]);
        return ok(c);
      case "positionAppended": {
        const position = body.position as TPositionV2;
        const track = incidents.get(incidentId!)?.get(position.positionSource);
        if (!track) return c.json({ error: "append for a track not received in full" }, 409);
        track.push(position);
        return ok(c);
      }
      case "batteryLevel":
        return faults.rejectsUnknownIncident && !incidents.has(incidentId!)
          ? c.json({ error: "unknown incident" }, 404)
          : ok(c);
      default:
        return ok(c);
    }
  }
  return app;
}
