// A small webhook receiver for the kit's own tests, on a random port: v3, or
// v2 when its declaration says 2.x/1.x (fixture-legacy-receiver.ts). With no
// faults it is correct: it validates every token against the workbench's JWKS
// (iss, typ, alg, aud, sub, client_id, scope, lifetime), deduplicates on
// Service-Request-Id, holds each source's track and answers exactly 200. Each
// fault turns one of those off, the way real receivers get them wrong.
//
// Stricter than the contract asks on purpose: it answers 400 to a body that is
// not a valid v3 snapshot and 409 to an append for a track it does not hold, so
// a kit that sent wrong bodies or sequences would fail its own tests.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono, type Context } from "hono";
import type { Clock } from "../../platform/clock/clock.ts";
import { ZIncidentSnapshotV3, ZLocation, ZTrack, type TLocation } from "../../incidents/snapshot.schema.ts";
import {
  createWebhookTokenVerifier,
  psapConnectorRequirements,
  publisherRequirements,
} from "../../reference-receiver/verify-webhook-token.ts";
import { LEGACY_ROUTES, PSAP_READ_SCOPE } from "../../webhook-contracts/v2/routes.ts";
import { flagTreeShape, V3_FLAG_PATHS } from "../../webhook-contracts/v3/capability-flags.ts";
import { legacyMajorOf, type TAbout } from "../about.schema.ts";
import { legacyFixtureApp } from "./fixture-legacy-receiver.ts";
import type { ReceiverFaults } from "./receiver-faults.ts";

export type { ReceiverFaults } from "./receiver-faults.ts";

export type FixtureReceiverOptions = {
  authUrl: string;
  agencyId: string;
  clock?: Clock;
  faults?: ReceiverFaults;
  about?: TAbout;
};

/** The specific shape (PATCH routes) with every flag but caller.changed: exercises the most routes. */
export const FULL_ABOUT: TAbout = {
  version: "3.0",
  allowsMonitoring: false,
  supports: {
    incident: flagTreeShape<unknown>(
      V3_FLAG_PATHS.filter((f) => f !== "caller.changed"),
      () => true,
      (shape) => shape,
    ),
  },
};

/** A v2 receiver: v1/v2 have no capability flags (`supports` is not read), so it declares none. */
export const LEGACY_ABOUT: TAbout = { version: "2.0", allowsMonitoring: false, supports: {} };

export type FixtureReceiver = { url: string; events: string[]; close: () => Promise<void> };

export async function startFixtureReceiver(options: FixtureReceiverOptions): Promise<FixtureReceiver> {
  const events: string[] = [];
  const about = options.about ?? FULL_ABOUT;
  const app = legacyMajorOf(about.version)
    ? legacyFixtureApp({ ...options, about, events })
    : v3FixtureApp({ ...options, about, events });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        (server as import("node:http").Server).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

function v3FixtureApp(options: FixtureReceiverOptions & { about: TAbout; events: string[] }): Hono {
  const { authUrl, agencyId, clock, faults = {}, about, events } = options;
  const verifyToken = createWebhookTokenVerifier({ authUrl });
  const seenRequestIds = new Set<string>();
  const incidents = new Map<string, { tracks: Map<string, TLocation[]> }>();
  const ok = (c: Context) => c.body(null, faults.answers201 ? 201 : 200);

  async function authenticate(c: Context): Promise<boolean> {
    if (faults.acceptsAnyToken) return true;
    if (faults.servesV2SideBySide && (c.req.path === "/about" || c.req.path.startsWith("/v2/"))) {
      const scope = c.req.path === "/about" ? PSAP_READ_SCOPE : LEGACY_ROUTES.incident.scope;
      const legacy = await verifyToken({
        authorization: c.req.header("authorization"),
        now: clock?.now() ?? new Date(),
        ...psapConnectorRequirements(agencyId, scope),
      });
      if (legacy.ok) return true;
    }
    const check = await verifyToken({
      authorization: c.req.header("authorization"),
      now: clock?.now() ?? new Date(),
      ...publisherRequirements(agencyId),
    });
    return check.ok;
  }

  const app = new Hono();
  app.use("*", async (c, next) => {
    if (!(await authenticate(c)))
      return c.json({ error: "invalid_token" }, 401, { "www-authenticate": 'Bearer error="invalid_token"' });
    await next();
  });
  // Spec, "Events": the Service-Request-* headers are on every v3 event, not on /about or /health;
  // this fixture answers 400 to either route carrying one, so the kit's all-pass run proves it sends none.
  app.use("/:route{about|health}", async (c, next) => {
    if (["service-request-id", "service-request-timestamp"].some((h) => c.req.header(h) !== undefined))
      return c.json({ error: "Service-Request-* headers belong to events only" }, 400);
    await next();
  });
  app.get("/about", (c) => c.json(about));
  app.get("/health", (c) => c.json({ status: "ok" }));
  if (faults.servesV2SideBySide) app.post("/v2/incident", ok);
  // Deduplicate: a Service-Request-Id already recorded is answered 200 again, without processing.
  app.use("/v3/*", async (c, next) => {
    const requestId = c.req.header("service-request-id");
    if (!requestId || !c.req.header("service-request-timestamp"))
      return c.json({ error: "missing delivery headers" }, 400);
    events.push(`${c.req.method} ${c.req.path}`);
    if (!faults.noDedupe && seenRequestIds.has(requestId)) return ok(c);
    await next();
    if (c.res.status < 300) seenRequestIds.add(requestId);
  });
  app.post("/v3/incidents", async (c) => {
    const parsed = ZIncidentSnapshotV3.safeParse((await c.req.json<{ incident?: unknown }>()).incident);
    if (!parsed.success) return c.json({ error: "not a v3 snapshot" }, 400);
    if (faults.noDedupe && incidents.has(parsed.data.id)) return c.json({ error: "incident already exists" }, 409);
    if (faults.slowCreateMs) await new Promise((r) => setTimeout(r, faults.slowCreateMs));
    incidents.set(parsed.data.id, { tracks: new Map(parsed.data.caller.tracks.map((t) => [t.source, t.track])) });
    return ok(c);
  });
  const incident = (id: string) => incidents.get(id) ?? incidents.set(id, { tracks: new Map() }).get(id)!;
  app.put("/v3/incidents/:id/caller/track", async (c) => {
    const parsed = ZTrack.safeParse(await c.req.json<unknown>());
    if (!parsed.success) return c.json({ error: "not a track" }, 400);
    incident(c.req.param("id")).tracks.set(parsed.data.source, parsed.data.track);
    return ok(c);
  });
  app.post("/v3/incidents/:id/caller/track", async (c) => {
    const parsed = ZLocation.safeParse((await c.req.json<{ location?: unknown }>()).location);
    if (!parsed.success) return c.json({ error: "not a location" }, 400);
    const track = incident(c.req.param("id")).tracks.get(parsed.data.source);
    if (!track) return c.json({ error: "append for a track not received in full" }, 409);
    track.push(parsed.data);
    return ok(c);
  });
  app.patch("/v3/incidents/:id/label", (c) =>
    faults.rejectsUnknownIncident && !incidents.has(c.req.param("id"))
      ? c.json({ error: "unknown incident" }, 404)
      : ok(c),
  );
  // Every other event route: recorded and acknowledged.
  app.on(["POST", "PUT", "PATCH"], "/v3/incidents/:id/*", (c) => ok(c));
  return app;
}
