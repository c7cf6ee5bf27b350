// The deliveries and integrations routers (what the CLI and the Deliveries page use).
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../../api/root.ts";
import { createTRPCContext } from "../../api/trpc.ts";
import { setRuntime } from "../../runtime.ts";
import { AGENCY } from "../../../prisma/seed.ts";
import { createIncident } from "../../incidents/create-incident.ts";
import { setIncidentText } from "../../incidents/set-incident-text.ts";
import { startWebhookHarness, type WebhookHarness } from "../testing/webhook-harness.ts";

const ID = "5d1f0000-0000-4000-8000-0000000000bb";
const msw = setupServer(
  http.get("https://cad.partner.test/webhooks/about", () =>
    HttpResponse.json({ version: "3.1", supports: { incident: { created: true, closed: true } } }),
  ),
  http.get("https://new-cad.partner.test/webhooks/about", () => new HttpResponse("starting", { status: 503 })),
);
let h: WebhookHarness;
let caller: ReturnType<typeof createCaller>;
beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "error" });
  h = await startWebhookHarness({ flags: ["incident.created", "labelChanged"] });
  setRuntime(h.runtime);
  caller = createCaller(await createTRPCContext({ headers: new Headers() }));
  // Through the aggregate: a resend re-plans from the incident's own snapshot.
  const { db, clock } = h.runtime;
  await createIncident({
    db,
    clock,
    portalUrl: "http://wb.test",
    id: ID,
    purpose: "Test",
    routingMode: "TokenAgency",
    createdByAgencyId: AGENCY.northPsap,
    agencyIds: [AGENCY.northPsap],
    phoneNumber: null,
    actor: "test",
  });
  await setIncidentText({ db, clock, incidentId: ID, actor: "test", field: "label", value: "x" });
});
afterAll(async () => {
  msw.close();
  setRuntime(undefined);
  await h.close();
});

describe("deliveries and integrations API", () => {
  it("lists deliveries oldest first in the CLI's shape, filtered by incident and integration", async () => {
    const rows = await caller.deliveries.list({ incidentId: ID });
    expect(rows.map((r) => [r.integration, r.method, r.path, r.state, r.attempts])).toEqual([
      ["north-psap", "POST", "/v3/incidents", "pending", []],
      ["north-psap", "PATCH", `/v3/incidents/${ID}/label`, "pending", []],
    ]);
    expect(rows[0]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // The label change waits behind the unsent create, the lane's head.
    expect(rows.map((r) => r.waitingBehind)).toEqual([null, rows[0]!.requestId]);
    expect(await caller.deliveries.list({ integration: "central-ems" })).toEqual([]);
  });

  it("resends one delivery now, outside its lane, under a new Service-Request-Id", async () => {
    const [, label] = await caller.deliveries.list({ incidentId: ID });
    const received: Array<{ id: string | null; auth: string | null; body: unknown }> = [];
    msw.use(
      http.patch(/\/v3\/incidents\/[^/]+\/label$/, async ({ request }) => {
        const [id, auth] = ["service-request-id", "authorization"].map((h) => request.headers.get(h));
        received.push({ id: id!, auth: auth!, body: await request.json() });
        return HttpResponse.json({});
      }),
    );
    const result = await caller.deliveries.resendDelivery({ requestId: label!.requestId });
    expect(received).toEqual([
      { id: result.step.requestId, auth: expect.stringMatching(/^Bearer ey/), body: { label: "x" } },
    ]);
    expect(result.step).toMatchObject({ status: 200, accepted: true });
    expect(result).toMatchObject({ resentFrom: label!.requestId, integration: "north-psap" });
    expect(result.step).toMatchObject({ method: "PATCH", path: `/v3/incidents/${ID}/label` });
    expect(result.step.requestId).not.toBe(label!.requestId);
    // Not through the outbox: the lane is as it was.
    expect((await caller.deliveries.list({ incidentId: ID })).map((r) => r.requestId)).toContain(label!.requestId);
    await expect(
      caller.deliveries.resendDelivery({ requestId: "5d1f0000-0000-4000-8000-00000000ffff" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("reports each integration's health, with no rate before any attempt", async () => {
    const health = await caller.deliveries.health();
    expect(health.map((h) => h.integration)).toEqual(["central-ems", "fire-rescue", "north-psap"]);
    expect(health.find((h) => h.integration === "north-psap")).toMatchObject({
      attempts: 0,
      successRate: null,
      failingSince: null,
      lastError: null,
    });
  });

  it("re-sends an incident's create sequence as new events behind the queue", async () => {
    const result = await caller.deliveries.resend({ incidentId: ID });
    expect(result.planned.map((p) => [p.integration, p.method, p.path])).toEqual([
      ["north-psap", "POST", "/v3/incidents"],
    ]);
    const rows = await caller.deliveries.list({ incidentId: ID });
    expect(rows.map((r) => r.path)).toEqual(["/v3/incidents", `/v3/incidents/${ID}/label`, "/v3/incidents"]);
    expect(new Set(rows.map((r) => r.requestId)).size).toBe(3);
    await expect(
      caller.deliveries.resend({ incidentId: "5d1f0000-0000-4000-8000-00000000ffff" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("points an integration at an integrator's receiver and rediscovers it", async () => {
    const result = await caller.integrations.set({ key: "central-ems", url: "https://cad.partner.test/webhooks/" });
    expect(result).toMatchObject({ status: "active", version: "3.1", flags: ["incident.created", "incident.closed"] });
    const listed = (await caller.integrations.list()).find((i) => i.key === "central-ems")!;
    expect(listed).toMatchObject({
      receiverUrl: "https://cad.partner.test/webhooks",
      insecureDev: false,
      discovery: { status: "active", majorVersion: 3 },
    });
    await expect(caller.integrations.set({ key: "central-ems", url: "ftp://x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller.integrations.rediscover({ key: "nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a new receiver URL starts undiscovered: the old declaration goes, its lanes start anew", async () => {
    await caller.integrations.set({ key: "central-ems", url: "https://cad.partner.test/webhooks/" });
    const { db, clock } = h.runtime;
    const lane = { integrationKey: "central-ems", incidentId: ID };
    await db.webhookLane.upsert({
      where: { integrationKey_incidentId: lane },
      create: { ...lane, introduced: true, fullTracks: ["MobileApp"], updatedAt: clock.now() },
      update: { introduced: true, fullTracks: ["MobileApp"] },
    });
    // The same URL again keeps both.
    await caller.integrations.set({ key: "central-ems", url: "https://cad.partner.test/webhooks" });
    expect(await db.webhookLane.findUniqueOrThrow({ where: { integrationKey_incidentId: lane } })).toMatchObject({
      introduced: true,
    });
    // A new URL whose /about does not answer yet: nothing is planned against the old receiver's
    // declaration (an unreachable /about kept it before), and each incident starts anew there.
    const result = await caller.integrations.set({ key: "central-ems", url: "https://new-cad.partner.test/webhooks" });
    expect(result).toMatchObject({ status: "unreachable" });
    const listed = (await caller.integrations.list()).find((i) => i.key === "central-ems")!;
    expect(listed.discovery).toMatchObject({ status: "unreachable", majorVersion: null });
    expect(await db.webhookLane.findUniqueOrThrow({ where: { integrationKey_incidentId: lane } })).toMatchObject({
      introduced: false,
      fullTracks: [],
    });
  });
});
