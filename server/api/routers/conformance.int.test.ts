// The conformance router through the server-side caller, against a fixture
// receiver that verifies tokens at the test server's JWKS: start, follow by
// events, read back, history; the agency resolved from an integration; input errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../root.ts";
import { createTRPCContext } from "../trpc.ts";
import { setRuntime } from "../../runtime.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { waitForRunFinished } from "../../conformance/conformance-events.ts";
import { startFixtureReceiver, type FixtureReceiver } from "../../conformance/testing/fixture-receiver.ts";

const NORTH_PSAP = "0b0c5b52-1c0e-4a57-9a57-000000000001";
const CENTRAL_EMS = "0b0c5b52-1c0e-4a57-9a57-000000000002";
let server: TestServer;
let receiver: FixtureReceiver;
let caller: ReturnType<typeof createCaller>;

beforeAll(async () => {
  server = await startTestServer();
  setRuntime(server.runtime);
  caller = createCaller(await createTRPCContext({ headers: new Headers() }));
  receiver = await startFixtureReceiver({ authUrl: server.url, agencyId: CENTRAL_EMS, clock: server.runtime.clock });
});
afterAll(async () => {
  await receiver.close();
  setRuntime(undefined);
  await server.close();
});

describe("conformance router", () => {
  it("starts a run, reports progress per group, and keeps it in the history", async () => {
    const { id } = await caller.conformance.start({
      receiverUrl: `${receiver.url}/`,
      agencyId: CENTRAL_EMS,
      insecureDev: true,
    });
    const status = await waitForRunFinished(id, { db: server.runtime.db });
    expect(status).toBe("passed");
    const run = await caller.conformance.get({ id });
    expect(run).toMatchObject({ receiverUrl: receiver.url, agencyId: CENTRAL_EMS, status: "passed" });
    const plan = await caller.conformance.checks();
    expect(run.groups.map((g) => [g.group, g.done, g.failed])).toEqual([
      ["discovery", plan.filter((c) => c.group === "discovery").length, 0],
      ["tokens", plan.filter((c) => c.group === "tokens").length, 0],
      ["delivery", plan.filter((c) => c.group === "delivery").length, 0],
    ]);
    const history = await caller.conformance.history();
    expect(history[0]).toMatchObject({ id, status: "passed" });
    expect(history[0]).not.toHaveProperty("results");
  });

  it("the wrong agency is caught: every delivery is refused for its audience", async () => {
    const { id } = await caller.conformance.start({
      receiverUrl: receiver.url,
      agencyId: NORTH_PSAP,
      insecureDev: true,
    });
    expect(await waitForRunFinished(id, { db: server.runtime.db })).toBe("failed");
    const run = await caller.conformance.get({ id });
    expect(run.results.find((r) => r.id === "about.reachable")).toMatchObject({
      outcome: "fail",
      reason: expect.stringMatching(
        /refused the legacy credential \(401\), then answered 401 to the Publisher credential\. Is the agency right \(aud urn:service:webhooks:0b0c5b52-1c0e-4a57-9a57-000000000001\)/,
      ),
    });
  });

  it("a run left running by a stopped workbench shows as interrupted after 15 minutes", async () => {
    const id = "6f1c1d6e-8d7b-4a55-9a3e-3c1f6a0b9e02";
    const startedAt = new Date(server.runtime.clock.nowMs() - 16 * 60_000);
    await server.runtime.db.conformanceRun.create({
      data: { id, receiverUrl: receiver.url, agencyId: NORTH_PSAP, status: "running", startedAt },
    });
    expect(await caller.conformance.get({ id })).toMatchObject({
      status: "error",
      errorDetail: expect.stringMatching(/interrupted/),
    });
    await server.runtime.db.conformanceRun.update({
      where: { id },
      data: { startedAt: new Date(server.runtime.clock.nowMs() - 60_000) },
    });
    expect(await caller.conformance.get({ id })).toMatchObject({ status: "running", errorDetail: null });
  });

  it("refuses plain http off loopback or without insecure-dev, link-local always, an unknown agency, and an unknown run", async () => {
    await expect(caller.conformance.start({ receiverUrl: "http://cad.example.com/hooks" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message:
        "refused: http://cad.example.com is plain http; HTTPS with a valid certificate is required unless the target is marked insecure-dev (loopback, or a host in OUTBOUND_ALLOW)",
    });
    await expect(caller.conformance.start({ receiverUrl: receiver.url })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(
        /^refused: http:\/\/127\.0\.0\.1:\d+ is plain http; HTTPS with a valid certificate is required/,
      ),
    });
    await expect(
      caller.conformance.start({ receiverUrl: "http://[::ffff:169.254.169.254]/", insecureDev: true }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message:
        "refused: ::ffff:a9fe:a9fe is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    });
    await expect(
      caller.conformance.start({
        receiverUrl: receiver.url,
        agencyId: "0b0c5b52-1c0e-4a57-9a57-0000000000aa",
        insecureDev: true,
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.conformance.get({ id: "6f1c1d6e-8d7b-4a55-9a3e-3c1f6a0b9e01" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
