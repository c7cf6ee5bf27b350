// The kit against receivers on real local ports: a correct fixture passes
// 100%; each deliberate fault is caught by exactly the checks that name it.
import net, { type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { CONFORMANCE_CHECKS } from "./conformance-checks.ts";
import { getConformanceRun, type ConformanceRunView } from "./list-conformance-runs.ts";
import type { TAbout } from "./about.schema.ts";
import { startConformanceRun } from "./start-conformance-run.ts";
import { startFixtureReceiver, type FixtureReceiver, type ReceiverFaults } from "./testing/fixture-receiver.ts";

const NORTH_PSAP = "0b0c5b52-1c0e-4a57-9a57-000000000001";
let server: TestServer;
let receiver: FixtureReceiver | undefined;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** Runs the whole kit against a URL (fixtures on loopback: insecure-dev) and returns the persisted run. */
export async function runKit(receiverUrl: string, agencyId?: string): Promise<ConformanceRunView> {
  const { id, done } = await startConformanceRun(server.runtime, { receiverUrl, agencyId, insecureDev: true });
  await done;
  return getConformanceRun({ db: server.runtime.db, clock: server.runtime.clock, id });
}

async function runAgainstFixture(faults: ReceiverFaults = {}, about?: TAbout) {
  receiver = await startFixtureReceiver({
    authUrl: server.url,
    agencyId: NORTH_PSAP,
    clock: server.runtime.clock,
    faults,
    about,
  });
  return runKit(receiver.url, NORTH_PSAP);
}

/** Every check passed: the list of the others, with their reasons, must be empty. */
export function expectAllPass(run: ConformanceRunView) {
  expect(
    run.results.filter((r) => r.outcome !== "pass").map((r) => [r.id, r.outcome, r.reason ?? r.why ?? ""]),
  ).toEqual([]);
  expect(run.results).toHaveLength(CONFORMANCE_CHECKS.length);
  expect(run.status).toBe("passed");
}

const failedIds = (run: ConformanceRunView) =>
  run.results
    .filter((r) => r.outcome !== "pass")
    .map((r) => r.id)
    .sort();
const TOKEN_REFUSALS = CONFORMANCE_CHECKS.filter((c) => c.group === "tokens" && c.id !== "token.valid-accepted").map(
  (c) => c.id,
);

describe("conformance kit", () => {
  // A CI gate both ways: the kit must pass the reference receiver, and the receiver must pass the kit.
  it("the embedded reference receiver passes 100%", async () =>
    expectAllPass(await runKit(`${server.url}/receivers/north-psap`)));

  it("an embedded receiver's agency comes from its integration when none is named", async () => {
    const run = await runKit(`${server.url}/receivers/central-ems`);
    expect(run.agencyId).toBe("0b0c5b52-1c0e-4a57-9a57-000000000002");
  });

  it("a correct receiver passes every check, and the run is persisted", async () => {
    const run = await runAgainstFixture();
    expectAllPass(run);
    expect(run).toMatchObject({
      status: "passed",
      aboutVersion: "3.0",
      counts: { requiredFailed: 0, passed: CONFORMANCE_CHECKS.length },
    });
    expect(run.finishedAt).not.toBeNull();
    // Every declared route was exercised, in the contract's order for one incident.
    const routes = new Set(receiver!.events.map((e) => e.replace(/[0-9a-f-]{36}/g, "{id}")));
    for (const r of [
      "POST /v3/incidents",
      "PUT /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/closed",
      "POST /v3/incidents/{id}/changed",
      "PATCH /v3/incidents/{id}/label",
      "PATCH /v3/incidents/{id}/involved-agency/{id}/collaboration",
      "POST /v3/incidents/{id}/caller/live-video/ended",
    ]) {
      expect(routes).toContain(r);
    }
  });

  it("a receiver accepting any token fails every refusal and the legacy-credential check", async () => {
    const run = await runAgainstFixture({ acceptsAnyToken: true });
    expect(failedIds(run)).toEqual([...TOKEN_REFUSALS, "about.refuses-legacy-credential"].sort());
    const alg = run.results.find((r) => r.id === "token.alg-none")!;
    expect(alg.reason).toMatch(/^Accepted \(200\)/);
    expect(alg.risk).toMatch(/anyone can write one/);
    expect(run.status).toBe("failed");
  });

  it("a 3.x receiver serving v2 routes side by side gets a warning, not a failure, for the legacy credential", async () => {
    const run = await runAgainstFixture({ servesV2SideBySide: true });
    const legacy = run.results.find((r) => r.id === "about.refuses-legacy-credential")!;
    expect(legacy).toMatchObject({ outcome: "fail", required: false });
    expect(legacy.reason).toMatch(/serves v2 routes beside v3 \(POST \/v2\/incident answered 200/);
    expect(legacy.risk).toMatch(/Once they are removed/);
    expect(run.status).toBe("passed");
    expect(run.counts.requiredFailed).toBe(0);
  });

  it("a receiver answering 201 fails the exact-200 check and every delivery", async () => {
    const run = await runAgainstFixture({ answers201: true });
    const exact = run.results.find((r) => r.id === "delivery.exactly-200")!;
    expect(exact).toMatchObject({ outcome: "fail", reason: "POST /v3/incidents answered 201." });
    expect(exact.risk).toMatch(/counts 201 as a failure/);
    expect(failedIds(run)).toEqual(
      CONFORMANCE_CHECKS.filter((c) => c.group === "delivery" && c.id !== "delivery.latency-p95")
        .map((c) => c.id)
        .sort(),
    );
    expect(run.status).toBe("failed");
  });

  it("a receiver without deduplication fails the repeated Service-Request-Id check only", async () => {
    const run = await runAgainstFixture({ noDedupe: true });
    expect(failedIds(run)).toEqual(["delivery.duplicate-request-id"]);
    expect(run.results.find((r) => r.id === "delivery.duplicate-request-id")!.reason).toMatch(/answered 409/);
    expect(run.status).toBe("failed");
  });

  it("a slow receiver is flagged on p95 latency, as advice (the verdict stays passed)", async () => {
    const run = await runAgainstFixture({ slowCreateMs: 1_100 });
    expect(failedIds(run)).toEqual(["delivery.latency-p95"]);
    expect(run.results.find((r) => r.id === "delivery.latency-p95")!.reason).toMatch(
      /^p95 1\d{3} ms over \d+ deliveries/,
    );
    expect(run.status).toBe("passed");
  }, 60_000);

  it("a receiver answering 404 for an incident it never saw is flagged, as advice", async () => {
    const run = await runAgainstFixture({ rejectsUnknownIncident: true });
    expect(failedIds(run)).toEqual(["delivery.unknown-incident"]);
    expect(run.results.find((r) => r.id === "delivery.unknown-incident")!.reason).toMatch(
      /^PATCH \/v3\/incidents\/[0-9a-f-]{36}\/label for an unknown incident answered 404\.$/,
    );
    expect(run.status).toBe("passed");
  });

  it("only declared routes are exercised: a create-only receiver gets creates, and the rest is skipped with why", async () => {
    const run = await runAgainstFixture({}, { version: "3.0", supports: { incident: { created: true } } });
    expect(run.status).toBe("passed");
    expect(new Set(receiver!.events.map((e) => e.replace(/[0-9a-f-]{36}/g, "{id}")))).toEqual(
      new Set(["POST /v3/incidents"]),
    );
    const skippedIds = run.results.filter((r) => r.outcome === "skipped").map((r) => r.id);
    expect(skippedIds).toEqual([
      "delivery.create-then-track",
      "delivery.append-after-track",
      "delivery.track-replacement",
      "delivery.changed-event",
      "delivery.specific-routes",
      "delivery.closed",
      "delivery.unknown-incident",
    ]);
    expect(run.results.find((r) => r.id === "delivery.closed")!.why).toMatch(/does not declare closed/);
  });

  it("a receiver without incident.created gets changed events and whole-track PUTs, never a create", async () => {
    const run = await runAgainstFixture(
      {},
      { version: "3.1", supports: { incident: { changed: true, caller: { trackReplaced: true } } } },
    );
    expect(run.status).toBe("passed");
    const routes = new Set(receiver!.events.map((e) => e.replace(/[0-9a-f-]{36}/g, "{id}")));
    expect(routes).toEqual(new Set(["POST /v3/incidents/{id}/changed", "PUT /v3/incidents/{id}/caller/track"]));
    expect(run.results.find((r) => r.id === "delivery.test-purpose")).toMatchObject({ outcome: "skipped" });
  });

  it("a declaration that breaks the rules is caught: no entry event, newLocation without trackReplaced", async () => {
    const run = await runAgainstFixture(
      {},
      { version: "3.0", supports: { incident: { closed: true, caller: { newLocation: true } } } },
    );
    expect(run.results.filter((r) => r.outcome === "fail").map((r) => r.id)).toEqual([
      "about.declares-entry",
      "about.track-flags",
    ]);
    expect(run.status).toBe("failed");
  });

  it("an unreachable receiver fails discovery and skips the rest with reasons", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const run = await runKit(`http://127.0.0.1:${port}/`, NORTH_PSAP);
    expect(run.results.find((r) => r.id === "about.reachable")).toMatchObject({
      outcome: "fail",
      reason: expect.stringMatching(/did not answer: ECONNREFUSED/),
    });
    expect(run.results.filter((r) => r.group !== "discovery").every((r) => r.outcome === "skipped")).toBe(true);
    expect(run.status).toBe("failed");
  });
});
