// Discovery against msw stand-ins for receivers (outbound network otherwise blocked).
import { decodeJwt } from "jose";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startWebhookHarness, waitForEvents, type WebhookHarness } from "../testing/webhook-harness.ts";
import { discoverIntegration } from "./discover-integration.ts";
import { CapturedLogs } from "../../testing/test-server.ts";
import { createLogger } from "../../platform/logger.ts";

const RECEIVER = "https://receiver.partner.test/hooks";
const seenTokens: Array<Record<string, unknown>> = [];
/** The header names of every /about request the service sent. */
const seenHeaderNames: string[][] = [];
let aboutFor: (identity: string) => Response = () => HttpResponse.json({}, { status: 500 });
const msw = setupServer(
  http.get(`${RECEIVER}/about`, ({ request }) => {
    const claims = decodeJwt(String(request.headers.get("authorization")).replace("Bearer ", ""));
    seenTokens.push(claims);
    seenHeaderNames.push([...request.headers.keys()]);
    return aboutFor(String(claims.client_id));
  }),
  http.get("http://127.0.0.1:9/receivers/north-psap/about", () =>
    HttpResponse.json({ version: "3.0", supports: { incident: { changed: true } } }),
  ),
);
beforeAll(() => msw.listen({ onUnhandledRequest: "error" }));
afterAll(() => msw.close());

let h: WebhookHarness;
beforeEach(async () => {
  seenTokens.length = 0;
  seenHeaderNames.length = 0;
  h = await startWebhookHarness();
  await h.database.db.integration.update({
    where: { key: "central-ems" },
    data: { receiverUrl: RECEIVER, insecureDev: false },
  });
});
afterEach(() => h.close());

const v3Only = (declaration: Record<string, unknown>) => (identity: string) =>
  identity === "PsapConnector" ? new HttpResponse(null, { status: 401 }) : HttpResponse.json(declaration as never);

describe("discovery", () => {
  it("asks /about with PsapConnector first, on 401 again with Publisher, and stores the declared flags and major version", async () => {
    aboutFor = v3Only({
      version: "3.2.1",
      allowsMonitoring: true,
      supports: {
        incident: {
          created: true,
          caller: { changed: true, newLocation: true, trackReplaced: true, chat: { activated: true } },
          labelChanged: true,
          futureFlag: true,
        },
      },
    });
    const discovered = waitForEvents("integration:discovered", 1, (e) => e.integrationKey === "central-ems");
    const result = await discoverIntegration(h.runtime, "central-ems");
    expect(result).toMatchObject({
      status: "active",
      version: "3.2.1",
      majorVersion: 3,
      credential: "Publisher",
      error: null,
    });
    expect(result.flags).toEqual([
      "incident.created",
      "caller.changed",
      "caller.newLocation",
      "caller.trackReplaced",
      "caller.chat.activated",
      "labelChanged",
    ]);
    // Spec, "Events": Service-Request-Id/-Timestamp on every v3 event, not on /about or /health.
    expect(seenHeaderNames).toHaveLength(2);
    for (const names of seenHeaderNames) expect(names.filter((n) => n.startsWith("service-request-"))).toEqual([]);
    expect(seenTokens.map((t) => [t.client_id, t.aud])).toEqual([
      ["PsapConnector", "urn:service:agency:0b0c5b52-1c0e-4a57-9a57-000000000002"],
      ["Publisher", "urn:service:webhooks:0b0c5b52-1c0e-4a57-9a57-000000000002"],
    ]);
    await discovered;
    const row = await h.database.db.webhookCapabilities.findUniqueOrThrow({ where: { integrationKey: "central-ems" } });
    expect([row.status, row.allowsMonitoring, row.nextCheckAt.getTime() - row.checkedAt.getTime()]).toEqual([
      "active",
      true,
      600_000,
    ]);
  });

  it("keeps PsapConnector when the receiver accepts it (a receiver serving legacy and v3 side by side)", async () => {
    aboutFor = () => HttpResponse.json({ version: "3", supports: { incident: { changed: true } } });
    expect(await discoverIntegration(h.runtime, "central-ems")).toMatchObject({
      status: "active",
      credential: "PsapConnector",
      flags: ["incident.changed"],
    });
    expect(seenTokens).toHaveLength(1);
  });

  it("falls back to Publisher on 403 as on 401", async () => {
    aboutFor = (identity) =>
      identity === "PsapConnector"
        ? new HttpResponse(null, { status: 403 })
        : HttpResponse.json({ version: "3.1", supports: { incident: { created: true } } });
    expect(await discoverIntegration(h.runtime, "central-ems")).toMatchObject({
      status: "active",
      credential: "Publisher",
      flags: ["incident.created"],
    });
    expect(seenTokens.map((t) => t.client_id)).toEqual(["PsapConnector", "Publisher"]);
  });

  it("selects the major version the receiver declares (no configured version), and rejects one the service does not serve", async () => {
    aboutFor = () => HttpResponse.json({ version: "2.4", supports: {} });
    expect(await discoverIntegration(h.runtime, "central-ems")).toMatchObject({
      status: "active",
      majorVersion: 2,
      credential: "PsapConnector",
    });
    for (const version of ["4.0", "0.9", "v7", "next"]) {
      aboutFor = v3Only({ version, supports: { incident: { created: true, changed: true } } });
      const result = await discoverIntegration(h.runtime, "central-ems");
      expect(result.status, version).toBe("rejected");
      expect(result.error).toContain("no major version the service serves (1, 2, 3)");
      const row = await h.database.db.webhookCapabilities.findUniqueOrThrow({
        where: { integrationKey: "central-ems" },
      });
      expect(row.status).toBe("rejected");
    }
  });

  it("rejects (logged, retried in 30 s) a v3 declaration with neither incident.created nor incident.changed", async () => {
    aboutFor = v3Only({ version: "3.0", supports: { incident: { labelChanged: true } } });
    const result = await discoverIntegration(h.runtime, "central-ems");
    expect(result).toMatchObject({
      status: "rejected",
      error: "the declaration supports neither incident.created nor incident.changed",
    });
    const row = await h.database.db.webhookCapabilities.findUniqueOrThrow({ where: { integrationKey: "central-ems" } });
    expect(row.nextCheckAt.getTime() - row.checkedAt.getTime()).toBe(30_000);
  });

  it("reads a flag or group sent as null as unsupported and keeps the rest; a non-boolean flag is rejected by path", async () => {
    aboutFor = v3Only({
      version: "3.0",
      allowsMonitoring: null,
      supports: {
        incident: { created: true, closed: null, caller: { newLocation: true, chat: null }, involvedAgency: null },
      },
    });
    expect(await discoverIntegration(h.runtime, "central-ems")).toMatchObject({
      status: "active",
      flags: ["incident.created", "caller.newLocation"],
      error: null,
    });
    aboutFor = v3Only({ version: "3.0", supports: { incident: { created: true, closed: "yes" } } });
    const rejected = await discoverIntegration(h.runtime, "central-ems");
    expect(rejected.status).toBe("rejected");
    expect(rejected.error).toMatch(/^invalid capability declaration: supports\.incident\.closed: /);
  });

  it("rejects a declaration without `supports`, and reports an /about failure as unreachable", async () => {
    aboutFor = v3Only({ version: "3.0" });
    expect((await discoverIntegration(h.runtime, "central-ems")).status).toBe("rejected");
    aboutFor = () => new HttpResponse("down", { status: 503 });
    expect(await discoverIntegration(h.runtime, "central-ems")).toMatchObject({
      status: "unreachable",
      error: "GET /about answered HTTP 503",
    });
  });

  it("keeps an accepted declaration when /about is merely unreachable, and logs it as such", async () => {
    const logs = new CapturedLogs();
    const runtime = { ...h.runtime, logger: createLogger({ level: "debug", destination: logs }) };
    aboutFor = v3Only({ version: "3.0", supports: { incident: { created: true } } });
    expect((await discoverIntegration(runtime, "central-ems")).status).toBe("active");
    aboutFor = () => new HttpResponse("down", { status: 503 });
    expect((await discoverIntegration(runtime, "central-ems")).status).toBe("unreachable");
    const row = await h.database.db.webhookCapabilities.findUniqueOrThrow({ where: { integrationKey: "central-ems" } });
    expect(row).toMatchObject({ status: "active", flags: ["incident.created"], error: "GET /about answered HTTP 503" });
    expect(logs.text).toContain("/about unreachable; its accepted declaration is kept");
    expect(logs.text).not.toContain("not accepted at /about");
    // Not accepted at all: that warning stands.
    aboutFor = v3Only({ version: "3.0", supports: { incident: { labelChanged: true } } });
    expect((await discoverIntegration(runtime, "central-ems")).status).toBe("rejected");
    expect(logs.text).toContain("not accepted at /about");
  });

  it("reads at most 64 KiB of /about: a bigger answer is not a declaration, and the attempt says why", async () => {
    aboutFor = () =>
      HttpResponse.json({ version: "3.0", supports: { incident: { created: true } }, padding: "x".repeat(100 * 1024) });
    expect(await discoverIntegration(h.runtime, "central-ems")).toMatchObject({
      status: "unreachable",
      error: "GET /about: response body larger than 64 KiB: read stopped there and the connection closed",
    });
  });

  it("resolves a stored path against PUBLIC_URL (the embedded receivers) and refuses plain http unless insecure-dev", async () => {
    await h.database.db.integration.update({
      where: { key: "north-psap" },
      data: { receiverUrl: "/receivers/north-psap", insecureDev: true },
    });
    expect(await discoverIntegration(h.runtime, "north-psap")).toMatchObject({
      status: "active",
      flags: ["incident.changed"],
    });
    await h.database.db.integration.update({ where: { key: "north-psap" }, data: { insecureDev: false } });
    const refused = await discoverIntegration(h.runtime, "north-psap");
    expect(refused.error).toMatch(/^refused: http:\/\/127\.0\.0\.1:9 is plain http/);
  });
});
