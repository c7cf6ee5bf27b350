// The server's stop: every connection ends soon after its last response, not after the 65 s
// keep-alive (a stop right after start waited out its 10 s drain limit when the embedded
// receiver's JWKS fetch was still in flight on a kept-alive connection).
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { drainServer } from "./create-server.ts";

type Held = { release: () => void };

async function startServer() {
  const arrived: Array<{ path: string; held: Held }> = [];
  const server = http.createServer((req, res) => {
    const reply = () => res.end(`answer to ${req.url}`);
    if (req.url === "/slow") arrived.push({ path: req.url, held: { release: reply } });
    else reply();
  });
  server.keepAliveTimeout = 65_000; // as createWorkbenchServer sets it
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, arrived };
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections();
});

/** Raw HTTP/1.1 over one socket: what arrives back, and when the server closed it. */
function rawConnection(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (d) => (received += d.toString()));
  const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  const send = (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
  return { socket, send, ended, received: () => received };
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

/** A server with one connection whose /slow request waits for `release`. */
async function slowRequestInFlight() {
  const { server, port, arrived } = await startServer();
  servers.push(server);
  const conn = rawConnection(port);
  conn.send("/slow");
  await until(() => arrived.length === 1);
  return { server, conn, release: () => arrived[0]!.held.release() };
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p.then(() => "done" as const), new Promise<"late">((r) => setTimeout(() => r("late"), ms))]);

describe("drainServer", () => {
  it("closes a kept-alive connection as soon as its in-flight response has ended", async () => {
    const { server, conn, release } = await slowRequestInFlight();
    let forced = false;
    const drained = drainServer(server, { forceAfterMs: 5_000, onForce: () => (forced = true) });
    release();
    expect(await within(drained, 1_000)).toBe("done");
    expect(await within(conn.ended, 1_000)).toBe("done");
    expect(conn.received()).toContain("answer to /slow");
    expect(forced).toBe(false);
  });

  it("answers a request that arrives on an open connection during the drain with Connection: close", async () => {
    const { server, conn, release } = await slowRequestInFlight();
    const drained = drainServer(server, { forceAfterMs: 5_000, onForce: () => {} });
    conn.send("/fast"); // on the connection the drain leaves open for /slow's answer
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect(await within(drained, 1_000)).toBe("done");
    expect(await within(conn.ended, 1_000)).toBe("done");
    const [first, second] = conn.received().split("HTTP/1.1 ").filter(Boolean);
    expect(first).toContain("answer to /slow");
    expect(second).toMatch(/^200 /);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(second).toContain("answer to /fast");
  });

  it("cuts off a response still unfinished when the limit runs out, and says so", async () => {
    const { server, conn } = await slowRequestInFlight();
    let forced = false;
    const drained = drainServer(server, { forceAfterMs: 100, onForce: () => (forced = true) });
    expect(await within(drained, 2_000)).toBe("done");
    expect(forced).toBe(true);
    expect(await within(conn.ended, 1_000)).toBe("done");
  });

  it("refuses new connections at once", async () => {
    const { server, port } = await startServer();
    servers.push(server);
    await drainServer(server, { forceAfterMs: 5_000, onForce: () => {} });
    const refused = await new Promise<string>((resolve) =>
      net
        .connect(port, "127.0.0.1")
        .on("connect", () => resolve("connected"))
        .on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error")),
    );
    expect(refused).toBe("ECONNREFUSED");
  });
});
