// The outbound policy where integrations meet it: `integrations set` refuses at set time (tRPC
// BAD_REQUEST, one line, nothing stored); a stored URL whose name now resolves somewhere
// forbidden is refused at connect time, recorded on the delivery attempt and the discovery,
// never connected to; the embedded receivers are still reached in shared mode.
import dns from "node:dns";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createCaller } from "../api/root.ts";
import { createTRPCContext } from "../api/trpc.ts";
import { createApiToken } from "../workbench/access/api-tokens.ts";
import type { Runtime } from "../runtime.ts";
import { setRuntime } from "../runtime.ts";
import { startTestServer } from "../testing/test-server.ts";
import { buildChange, buildSnapshot } from "./testing/build-change.ts";
import { startWebhookHarness, waitForEvents, type WebhookHarness } from "./testing/webhook-harness.ts";
import { startDeliveryWorker } from "./delivery/delivery-worker.ts";
import { cutOverLane } from "./planning/supersede-queued-events.ts";
import { discoverIntegration } from "./discovery/discover-integration.ts";

const ID = "5d1f0000-0000-4000-8000-0000000000e1";
const SHARED = { WORKBENCH_ACCESS: "shared" };

/** The dashboard's API as an admin would call it: in shared mode that takes a credential (an API token here). */
async function adminCaller(runtime: Runtime) {
  const headers = new Headers();
  if (runtime.env.ACCESS_MODE === "shared") {
    const { token } = await createApiToken({
      db: runtime.db,
      clock: runtime.clock,
      input: { name: "outbound-policy test", role: "admin" },
      createdBy: "test",
    });
    headers.set("authorization", `Bearer ${token}`);
  }
  return createCaller(await createTRPCContext({ headers, runtime }));
}
const REFUSED_LOOPBACK =
  "refused: receiver.rebind.test (127.0.0.1) is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it";
let h: WebhookHarness | undefined;
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  vi.restoreAllMocks();
  setRuntime(undefined);
  await h?.close();
  h = undefined;
});

/** A loopback server that counts connections (it answers a plain 200 to anything). */
async function startCountingServer() {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.on("error", () => {});
    socket.once("data", () =>
      socket.end(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}",
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
  };
}

/** DNS answers for test names (the rest as usual): a name that resolves to loopback. */
function stubDns(answers: Record<string, string>) {
  const real = dns.lookup.bind(dns);
  vi.spyOn(dns, "lookup").mockImplementation(((hostname: string, options: unknown, callback: unknown) => {
    const cb = (typeof options === "function" ? options : callback) as (
      e: Error | null,
      a: unknown,
      f?: number,
    ) => void;
    const address = answers[hostname];
    if (!address) return (real as (...a: unknown[]) => void)(hostname, options, callback);
    const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all;
    setImmediate(() => (all ? cb(null, [{ address, family: 4 }]) : cb(null, address, 4)));
  }) as typeof dns.lookup);
  const realPromise = dns.promises.lookup.bind(dns.promises);
  vi.spyOn(dns.promises, "lookup").mockImplementation((async (hostname: string, options?: unknown) => {
    const address = answers[hostname];
    if (!address) return realPromise(hostname, options as never);
    return (options as { all?: boolean } | undefined)?.all ? [{ address, family: 4 }] : { address, family: 4 };
  }) as typeof dns.promises.lookup);
}

describe("at connect time (a stored URL whose name resolves to a forbidden address)", () => {
  /** A receiver on loopback behind a name that resolves there; one change delivered to it: the first attempt. */
  async function attemptThroughLoopbackName(env: Record<string, string>) {
    const harness = (h = await startWebhookHarness({ env }));
    const server = await startCountingServer();
    stubDns({ "receiver.rebind.test": "127.0.0.1" });
    await harness.pointIntegration("north-psap", ["incident.created"], {
      url: `http://receiver.rebind.test:${server.port}`,
      insecureDev: true,
    });
    const worker = await startDeliveryWorker(harness.runtime, { cutOverLane, timeoutMs: 2_000 });
    cleanups.push(() => worker.stop());
    const attempted = waitForEvents("delivery:attempted", 1);
    await harness.commit(
      buildChange({ kind: "incident.created" }, buildSnapshot({ id: ID }), { producedAt: harness.clock.now() }),
    );
    return { harness, server, attempt: (await attempted)[0]![0] };
  }

  it("shared mode: the delivery attempt is recorded with the one-line refusal and nothing connects", async () => {
    const { harness, server, attempt } = await attemptThroughLoopbackName(SHARED);
    expect([attempt.status, attempt.error]).toEqual([null, REFUSED_LOOPBACK]);
    const recorded = await harness.database.db.webhookAttempt.findFirstOrThrow();
    expect([recorded.status, recorded.error, recorded.url]).toEqual([
      null,
      REFUSED_LOOPBACK,
      `http://receiver.rebind.test:${server.port}/v3/incidents`,
    ]);
    expect(recorded.requestHeaders).not.toHaveProperty("authorization"); // never sent, so no token either
    expect((await harness.database.db.webhookDelivery.findFirstOrThrow()).state).toBe("pending");
    expect(server.connections).toBe(0);

    const discovery = await discoverIntegration(harness.runtime, "north-psap");
    expect([discovery.status, discovery.error]).toEqual(["unreachable", REFUSED_LOOPBACK]);
    expect(server.connections).toBe(0);
  });

  it("local mode: the same name and receiver are the developer's own, and are delivered to", async () => {
    const { server, attempt } = await attemptThroughLoopbackName({});
    expect([attempt.status, attempt.error]).toEqual([200, null]);
    expect(server.connections).toBe(1);
  });
});

describe("at set time (tRPC integrations.set)", () => {
  it.each([
    [
      "http://10.0.0.5/hooks",
      true,
      {},
      "refused: 10.0.0.5 is a private address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached",
    ],
    [
      "http://169.254.169.254/latest",
      true,
      { OUTBOUND_ALLOW: "0.0.0.0/0" },
      "refused: 169.254.169.254 is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    ],
    [
      "http://cad.example.com/hooks",
      false,
      {},
      "refused: http://cad.example.com is plain http; HTTPS with a valid certificate is required unless the target is marked insecure-dev (loopback, or a host in OUTBOUND_ALLOW)",
    ],
    [
      "http://localhost:5432",
      true,
      SHARED,
      "refused: localhost is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it",
    ],
    ["http://receiver.rebind.test:8080", true, SHARED, REFUSED_LOOPBACK],
    [
      "/api/trpc/system.resetSeed",
      false,
      {},
      'refused: "/api/trpc/system.resetSeed" is not an http(s) URL, and the only paths on this workbench are its embedded receivers (/receivers/{key})',
    ],
    [
      "/receivers/north-psap",
      false,
      {},
      "refused: a receiver on this workbench must be the integration's own embedded receiver, /receivers/central-ems",
    ],
  ])("refuses %s with one line, BAD_REQUEST, and stores nothing", async (url, insecureDev, env, message) => {
    h = await startWebhookHarness({ env });
    stubDns({ "receiver.rebind.test": "127.0.0.1" });
    setRuntime(h.runtime);
    const caller = await adminCaller(h.runtime);
    const before = await h.database.db.integration.findUniqueOrThrow({ where: { key: "central-ems" } });
    await expect(caller.integrations.set({ key: "central-ems", url, insecureDev })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message,
    });
    expect(message).not.toContain("\n");
    expect(await h.database.db.integration.findUniqueOrThrow({ where: { key: "central-ems" } })).toEqual(before);
  });

  it("OUTBOUND_ALLOW admits what the default refuses: loopback in shared mode", async () => {
    h = await startWebhookHarness({ env: { ...SHARED, OUTBOUND_ALLOW: "127.0.0.0/8" } });
    setRuntime(h.runtime);
    const caller = await adminCaller(h.runtime);
    // Nothing listens on port 1: stored, and discovery connects and is refused by the OS (not by the policy).
    const result = await caller.integrations.set({ key: "central-ems", url: "https://127.0.0.1:1/hooks" });
    expect(result.error).toMatch(/^ECONNREFUSED/);
    expect((await h.database.db.integration.findUniqueOrThrow({ where: { key: "central-ems" } })).receiverUrl).toBe(
      "https://127.0.0.1:1/hooks",
    );
  });
});

it("shared mode: the embedded receivers (on PUBLIC_URL, loopback here) are still discovered", async () => {
  const server = await startTestServer({ env: SHARED });
  cleanups.push(() => server.close());
  expect(server.runtime.env.ACCESS_MODE).toBe("shared");
  expect(await discoverIntegration(server.runtime, "north-psap")).toMatchObject({ status: "active", error: null });
});
