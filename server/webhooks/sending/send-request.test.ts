// The sender over real loopback sockets (no msw: the policy's lookup runs only on a real
// connection): a refused target is never connected to, even through a name that resolves to
// it (DNS answers stubbed); a total deadline against a trickling receiver; a bounded read.
import dns from "node:dns";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseAllowList, type OutboundPolicy } from "../../platform/network/outbound-policy.ts";
import { serveInProcess } from "../../platform/network/in-process-origins.ts";
import { RESPONSE_BODY_CAP_BYTES, sendRequest, type OutboundTargetKind } from "./send-request.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  vi.restoreAllMocks();
});

/** A raw TCP server on loopback that counts connections and runs `onSocket` for each. */
async function startRawServer(
  onSocket: (socket: net.Socket) => void = (s) =>
    s.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok"),
) {
  const sockets = new Set<net.Socket>();
  const connections: Array<{ openedAt: number; closedAt?: number }> = [];
  const server = net.createServer((socket) => {
    const c: { openedAt: number; closedAt?: number } = { openedAt: performance.now() };
    connections.push(c);
    sockets.add(socket);
    socket.on("close", () => {
      c.closedAt = performance.now();
      sockets.delete(socket);
    });
    socket.on("error", () => {});
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, connections };
}

/** Answers `name` with `addresses` (a stub DNS), every other name as usual. */
function stubDns(answers: Record<string, string[]>) {
  const real = dns.lookup.bind(dns);
  vi.spyOn(dns, "lookup").mockImplementation(((hostname: string, options: unknown, callback: unknown) => {
    const cb = (typeof options === "function" ? options : callback) as (
      e: Error | null,
      a: unknown,
      f?: number,
    ) => void;
    const list = answers[hostname];
    if (!list) return (real as (...a: unknown[]) => void)(hostname, options, callback);
    const all = list.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
    const opts = typeof options === "object" && options !== null ? (options as { all?: boolean }) : {};
    setImmediate(() => (opts.all ? cb(null, all) : cb(null, all[0]!.address, all[0]!.family)));
  }) as typeof dns.lookup);
}

const policy = (mode: "local" | "shared", allow = ""): OutboundPolicy => ({ mode, allow: parseAllowList(allow) });
const checked = (p: OutboundPolicy, insecureDev = true): OutboundTargetKind => ({
  kind: "checked",
  insecureDev,
  policy: p,
});
const get = (url: string, target: OutboundTargetKind, timeoutMs?: number) =>
  sendRequest({ url, method: "GET", headers: {}, body: null, target, timeoutMs });

describe("the outbound policy at connect time", () => {
  it("shared mode: a name resolving to loopback is refused in its lookup, and nothing connects", async () => {
    const server = await startRawServer();
    stubDns({ "receiver.rebind.test": ["127.0.0.1"] });
    const result = await get(`http://receiver.rebind.test:${server.port}/about`, checked(policy("shared")));
    expect(result).toMatchObject({
      status: null,
      refused: true,
      error:
        "refused: receiver.rebind.test (127.0.0.1) is this workbench's own machine (loopback); a shared workbench reaches it only when OUTBOUND_ALLOW lists it",
    });
    expect(server.connections).toHaveLength(0);
    // The same name and server in local mode (a developer's own receiver) connects: the refusal above was the policy's.
    expect(await get(`http://receiver.rebind.test:${server.port}/about`, checked(policy("local")))).toMatchObject({
      status: 200,
      error: null,
      body: "ok",
    });
    expect(server.connections).toHaveLength(1);
  });

  it("refuses when any address of the name is forbidden (a rebinding answer mixing public and metadata)", async () => {
    const server = await startRawServer();
    stubDns({ "mixed.rebind.test": ["127.0.0.1", "169.254.169.254"] });
    const result = await get(`http://mixed.rebind.test:${server.port}/`, checked(policy("local", "0.0.0.0/0")));
    expect(result.error).toBe(
      "refused: mixed.rebind.test (169.254.169.254) is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
    );
    expect(server.connections).toHaveLength(0);
  });

  it("shared mode: a literal loopback address (decimal, mapped IPv6) is refused before any socket", async () => {
    const server = await startRawServer();
    for (const host of ["127.0.0.1", "2130706433", "[::ffff:127.0.0.1]"]) {
      expect((await get(`http://${host}:${server.port}/`, checked(policy("shared")))).error).toMatch(
        /^refused: .* is this workbench's own machine \(loopback\)/,
      );
    }
    expect(server.connections).toHaveLength(0);
    expect(await get(`http://127.0.0.1:${server.port}/`, checked(policy("shared", "127.0.0.1")))).toMatchObject({
      status: 200,
    });
    expect(server.connections).toHaveLength(1);
  });

  it("an allow-listed name resolving to a private address connects; the same name unlisted does not", async () => {
    const server = await startRawServer();
    stubDns({ "cad.lab.test": ["127.0.0.1"] });
    expect((await get(`http://cad.lab.test:${server.port}/`, checked(policy("shared")))).refused).toBe(true);
    expect(await get(`http://cad.lab.test:${server.port}/`, checked(policy("shared", "cad.lab.test")))).toMatchObject({
      status: 200,
    });
    expect(server.connections).toHaveLength(1);
  });
});

describe("a total deadline per attempt", () => {
  it("ends an attempt to a receiver trickling a byte every 300 ms at the deadline (an idle timeout of 1 s never fired)", async () => {
    const answer = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
    const server = await startRawServer((socket) => {
      let i = 0;
      const timer = setInterval(
        () => (i < answer.length && !socket.destroyed ? socket.write(answer[i++]!) : clearInterval(timer)),
        300,
      );
      socket.on("close", () => clearInterval(timer));
    });
    const result = await get(`http://127.0.0.1:${server.port}/`, checked(policy("local")), 1_000);
    expect(result).toMatchObject({ status: null, error: "timeout: no response within 1000 ms" });
    expect(result.durationMs).toBeGreaterThanOrEqual(990);
    expect(result.durationMs).toBeLessThan(1_500);
    await vi.waitFor(() => expect(server.connections[0]!.closedAt).toBeDefined());
    // Closed at the deadline, not when the trickle would have ended (~12 s).
    expect(server.connections[0]!.closedAt! - server.connections[0]!.openedAt).toBeLessThan(2_500);
  });

  it("ends it too when the status arrived but the body trickles; the status is kept in the record", async () => {
    const server = await startRawServer((socket) => {
      socket.write("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n");
      const timer = setInterval(() => (!socket.destroyed ? socket.write("x") : clearInterval(timer)), 200);
      socket.on("close", () => clearInterval(timer));
    });
    const result = await get(`http://127.0.0.1:${server.port}/`, checked(policy("local")), 800);
    expect(result).toMatchObject({ status: 200, error: "timeout: the response was not complete within 800 ms" });
    expect(result.durationMs).toBeLessThan(1_300);
  });
});

describe("a caller that stops", () => {
  let requestsRead = 0;
  const silentServer = () => startRawServer((socket) => void socket.once("data", () => requestsRead++)); // never answers
  const stopped = "stopped: the caller gave up (its process is stopping)";

  it("ends an attempt in flight when its signal aborts, and closes the connection", async () => {
    const server = await silentServer();
    const caller = new AbortController();
    const pending = sendRequest({
      url: `http://127.0.0.1:${server.port}/`,
      method: "GET",
      headers: {},
      body: null,
      target: checked(policy("local")),
      signal: caller.signal,
    });
    const before = requestsRead;
    await vi.waitFor(() => expect(requestsRead).toBe(before + 1)); // the request is on the wire
    caller.abort();
    const result = await pending;
    expect(result).toMatchObject({ status: null, error: stopped });
    expect(result.durationMs).toBeLessThan(1_000);
    await vi.waitFor(() => expect(server.connections[0]!.closedAt).toBeDefined());
  });

  it("sends nothing when the signal has already aborted", async () => {
    const server = await silentServer();
    const result = await sendRequest({
      url: `http://127.0.0.1:${server.port}/`,
      method: "GET",
      headers: {},
      body: null,
      target: checked(policy("local")),
      signal: AbortSignal.abort(),
    });
    expect(result).toMatchObject({ status: null, error: stopped });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.connections).toHaveLength(0);
  });

  it("ends an in-process attempt too: the handler's connection closes", async () => {
    const origin = "http://in-process.test:1";
    let closed = false;
    const undo = serveInProcess(origin, (_request, { connection }) => {
      connection.once("close", () => (closed = true));
      return new Promise<Response>(() => {}); // never answers
    });
    cleanups.push(undo);
    const caller = new AbortController();
    const pending = sendRequest({
      url: `${origin}/about`,
      method: "GET",
      headers: {},
      body: null,
      target: { kind: "embedded", insecureDev: true },
      signal: caller.signal,
    });
    await new Promise((r) => setTimeout(r, 20));
    caller.abort();
    expect(await pending).toMatchObject({ status: null, error: stopped });
    expect(closed).toBe(true);
  });
});

describe("a bounded read", () => {
  it(`stops reading at ${RESPONSE_BODY_CAP_BYTES} bytes and closes the connection; the excerpt is kept`, async () => {
    let written = 0;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "y".repeat(16 * 1024);
      const pump = () => {
        while (!res.destroyed && written < 64 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
      };
      res.on("drain", pump);
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const closed = new Promise<void>((resolve) =>
      server.on("connection", (s: net.Socket) => s.on("close", () => resolve())),
    );
    const result = await get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, checked(policy("local")));
    expect(result).toMatchObject({
      status: 200,
      error: "response body larger than 64 KiB: read stopped there and the connection closed",
    });
    expect(result.body).toHaveLength(RESPONSE_BODY_CAP_BYTES);
    expect(result.bodyExcerpt).toHaveLength(2_000);
    await closed;
    expect(written).toBeLessThan(8 * 1024 * 1024); // the server stopped long before its 64 MiB
  });
});
