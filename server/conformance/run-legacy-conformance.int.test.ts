// The v2 checks against receivers on real local ports: the embedded reference
// receiver in v2 mode (seeded fire-rescue, /about 2.0) and the fixture in v2
// mode pass 100%; each deliberate fault of the fixture is caught in v2 too, by
// exactly the checks that name it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { whenReceiverProcessingIdle } from "../reference-receiver/process-deliveries.ts";
import { LEGACY_CONFORMANCE_CHECKS } from "./conformance-checks.ts";
import { conformanceEvents } from "./conformance-events.ts";
import { getConformanceRun, type ConformanceRunView } from "./list-conformance-runs.ts";
import type { TAbout } from "./about.schema.ts";
import type { RunProgress } from "./run-checks.ts";
import { startConformanceRun } from "./start-conformance-run.ts";
import {
  LEGACY_ABOUT,
  startFixtureReceiver,
  type FixtureReceiver,
  type ReceiverFaults,
} from "./testing/fixture-receiver.ts";

const FIRE = "0b0c5b52-1c0e-4a57-9a57-000000000003";
let server: TestServer;
let receiver: FixtureReceiver | undefined;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await whenReceiverProcessingIdle();
  await server.close();
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function runKit(
  receiverUrl: string,
  agencyId?: string,
): Promise<ConformanceRunView & { progress: RunProgress[] }> {
  const progress: RunProgress[] = [];
  let runId: string | undefined;
  const onProgress = (id: string, p: RunProgress) => {
    if (id === runId) progress.push(p);
  };
  conformanceEvents().on("run:progress", onProgress);
  try {
    const { id, done } = await startConformanceRun(server.runtime, { receiverUrl, agencyId, insecureDev: true });
    runId = id;
    await done;
    return { ...(await getConformanceRun({ db: server.runtime.db, clock: server.runtime.clock, id })), progress };
  } finally {
    conformanceEvents().off("run:progress", onProgress);
  }
}

async function runAgainstFixture(faults: ReceiverFaults = {}, about: TAbout = LEGACY_ABOUT) {
  receiver = await startFixtureReceiver({
    authUrl: server.url,
    agencyId: FIRE,
    clock: server.runtime.clock,
    faults,
    about,
  });
  return runKit(receiver.url, FIRE);
}

function expectAllPass(run: ConformanceRunView) {
  expect(
    run.results.filter((r) => r.outcome !== "pass").map((r) => [r.id, r.outcome, r.reason ?? r.why ?? ""]),
  ).toEqual([]);
  expect(run.results.map((r) => r.id)).toEqual(LEGACY_CONFORMANCE_CHECKS.map((c) => c.id));
  expect(run.status).toBe("passed");
}

const failedIds = (run: ConformanceRunView) =>
  run.results
    .filter((r) => r.outcome !== "pass")
    .map((r) => r.id)
    .sort();
const V2_TOKEN_REFUSALS = LEGACY_CONFORMANCE_CHECKS.filter(
  (c) => c.group === "tokens" && c.id !== "v2.token.valid-accepted",
).map((c) => c.id);
const routesOf = (events: string[]) => new Set(events.map((e) => e.replace(/[0-9a-f-]{36}/g, "{id}")));
const EVERY_V2_ROUTE = [
  "POST /v2/incident",
  "POST /v2/incident/{id}",
  "POST /v2/incident/{id}/position",
  "PUT /v2/incident/{id}/position",
  "POST /v2/incident/{id}/psap",
  "PATCH /v2/incident/{id}/battery-level",
  "PATCH /v2/incident/{id}/internet-connection-type",
  "POST /v2/incident/{id}/start-video",
];

describe("conformance kit, v2 receivers", () => {
  it("the embedded reference receiver in v2 mode (fire-rescue) passes 100%, on every v2 route", async () => {
    const run = await runKit(`${server.url}/receivers/fire-rescue`);
    expectAllPass(run);
    expect([run.agencyId, run.aboutVersion]).toEqual([FIRE, "2.0"]);
    await whenReceiverProcessingIdle();
    const records = await server.runtime.db.receiverRecord.findMany({
      where: { integrationKey: "fire-rescue", outcome: "accepted" },
      select: { route: true, anomalies: true },
    });
    expect(new Set(records.map((r) => r.route))).toEqual(
      new Set([
        "v2 incident",
        "v2 close",
        "v2 positionAppended",
        "v2 positionReplaced",
        "v2 psap",
        "v2 batteryLevel",
        "v2 internetConnectionType",
        "v2 startVideo",
      ]),
    );
    // The reference receiver validated every body and applied every sequence: the only anomaly is the deliberate unknown incident.
    expect(records.flatMap((r) => r.anomalies)).toEqual(["unknown-incident"]);
  });

  it("a correct v2 fixture passes every check; progress switches to the v2 plan once /about is read", async () => {
    const run = await runAgainstFixture();
    expectAllPass(run);
    expect(run.counts).toMatchObject({
      total: LEGACY_CONFORMANCE_CHECKS.length,
      passed: LEGACY_CONFORMANCE_CHECKS.length,
      requiredFailed: 0,
    });
    expect(run.groups.map((g) => g.done === g.total)).toEqual([true, true, true]);
    expect(run.progress.at(-1)).toMatchObject({
      done: LEGACY_CONFORMANCE_CHECKS.length,
      total: LEGACY_CONFORMANCE_CHECKS.length,
    });
    expect(routesOf(receiver!.events)).toEqual(new Set(EVERY_V2_ROUTE));
  });

  it("a v1 receiver gets the same checks under /v1", async () => {
    const run = await runAgainstFixture({}, { ...LEGACY_ABOUT, version: "1.3" });
    expectAllPass(run);
    expect(routesOf(receiver!.events)).toEqual(new Set(EVERY_V2_ROUTE.map((r) => r.replace("/v2/", "/v1/"))));
  });

  it("a v2 receiver accepting any token fails every v2 refusal", async () => {
    const run = await runAgainstFixture({ acceptsAnyToken: true });
    expect(failedIds(run)).toEqual([...V2_TOKEN_REFUSALS].sort());
    expect(run.results.find((r) => r.id === "v2.token.publisher")).toMatchObject({
      reason: expect.stringMatching(/^Accepted \(200\)/),
      risk: expect.stringMatching(/v3 credential is accepted/),
    });
    expect(run.status).toBe("failed");
  });

  it("a v2 receiver answering 201 fails the exact-200 check and every delivery", async () => {
    const run = await runAgainstFixture({ answers201: true });
    expect(run.results.find((r) => r.id === "v2.delivery.exactly-200")).toMatchObject({
      outcome: "fail",
      reason: "POST /v2/incident answered 201.",
    });
    expect(failedIds(run)).toEqual(
      LEGACY_CONFORMANCE_CHECKS.filter((c) => c.group === "delivery" && c.id !== "v2.delivery.latency-p95")
        .map((c) => c.id)
        .sort(),
    );
    expect(run.status).toBe("failed");
  });

  it("a v2 receiver without deduplication on the body's requestId fails that check only", async () => {
    const run = await runAgainstFixture({ noDedupe: true });
    expect(failedIds(run)).toEqual(["v2.delivery.duplicate-request-id"]);
    expect(run.results.find((r) => r.id === "v2.delivery.duplicate-request-id")!.reason).toMatch(
      /requestId [0-9a-f-]{36}\) answered 409/,
    );
  });

  it("a slow v2 receiver is flagged on p95 latency, as advice", async () => {
    const run = await runAgainstFixture({ slowCreateMs: 1_100 });
    expect(failedIds(run)).toEqual(["v2.delivery.latency-p95"]);
    expect(run.status).toBe("passed");
  }, 60_000);

  it("a v2 receiver answering 404 for an incident it never saw is flagged, as advice", async () => {
    const run = await runAgainstFixture({ rejectsUnknownIncident: true });
    expect(failedIds(run)).toEqual(["v2.delivery.unknown-incident"]);
    expect(run.results.find((r) => r.id === "v2.delivery.unknown-incident")!.reason).toMatch(
      /^PATCH \/v2\/incident\/[0-9a-f-]{36}\/battery-level for an unknown incident answered 404\.$/,
    );
    expect(run.status).toBe("passed");
  });

  it("a 2.x declaration whose flags leave out routes the service sends anyway is flagged, as advice; every route is still exercised", async () => {
    const run = await runAgainstFixture(
      {},
      { version: "2.1", supports: { incident: { created: true, closed: true } } },
    );
    expect(failedIds(run)).toEqual(["v2.about.flags"]);
    expect(run.results.find((r) => r.id === "v2.about.flags")!.reason).toContain("/v2/incident/{incidentId}/position");
    expect(routesOf(receiver!.events)).toEqual(new Set(EVERY_V2_ROUTE));
    expect(run.status).toBe("passed");
  });

  it("a 2.x receiver that answers /about only to the Publisher credential fails the legacy-credential check", async () => {
    const run = await runAgainstFixture({ aboutPublisherOnly: true });
    expect(failedIds(run)).toEqual(["v2.about.legacy-credential"]);
    expect(run.results.find((r) => r.id === "v2.about.legacy-credential")!.reason).toMatch(
      /^\/about refused the PsapConnector credential \(answered 401\) and declared 2\.0 only to the Publisher credential\.$/,
    );
    expect(run.status).toBe("failed");
  });
});
