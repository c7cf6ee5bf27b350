import http from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { endToEndHeaders, proxyToSocket } from "./proxy-to-socket.ts";

let dir: string;
let socketPath: string;
const servers: http.Server[] = [];
const closers: Array<() => void> = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "proxy-test-"));
  socketPath = path.join(dir, "upstream.sock");
});

afterEach(async () => {
  for (const close of closers.splice(0)) close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await rm(dir, { recursive: true, force: true });
});

async function listen(server: http.Server, where: string | number): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(where, resolve));
  const address = server.address();
  return typeof address === "string" ? address : `http://127.0.0.1:${address!.port}`;
}

/** The proxy on a loopback port, in front of `upstream` on the Unix socket. */
async function proxied(upstream: http.RequestListener | null): Promise<string> {
  if (upstream) await listen(http.createServer(upstream), socketPath);
  const proxy = proxyToSocket(socketPath, "the dashboard is not available\n");
  closers.push(proxy.close);
  return listen(http.createServer(proxy.handler), 0);
}

describe("proxyToSocket", () => {
  it("passes method, path, query, headers and body, and the answer back as it came", async () => {
    const origin = await proxied((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (body += chunk));
      req.on("end", () => {
        res.writeHead(201, "Made", [
          "content-type",
          "application/json",
          "set-cookie",
          "a=1",
          "set-cookie",
          "b=2",
          "x-seen",
          "yes",
        ]);
        res.end(
          JSON.stringify({
            method: req.method,
            url: req.url,
            host: req.headers.host,
            cookie: req.headers.cookie,
            body,
          }),
        );
      });
    });
    const res = await fetch(`${origin}/incidents/42?tab=track`, {
      method: "POST",
      headers: { cookie: "session=abc", "content-type": "text/plain" },
      body: "hello",
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe("Made");
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(res.headers.get("x-seen")).toBe("yes");
    expect(await res.json()).toEqual({
      method: "POST",
      url: "/incidents/42?tab=track",
      host: new URL(origin).host,
      cookie: "session=abc",
      body: "hello",
    });
  });

  it("keeps hop-by-hop headers, and those Connection names, on their own side", async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const origin = await proxied((req, res) => {
      seen.push(req.headers);
      res.setHeader("keep-alive", "timeout=1");
      res.setHeader("x-private-hop", "1");
      res.setHeader("connection", "x-private-hop");
      res.end("ok");
    });
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${origin}/`, {
        headers: { connection: "keep-alive, x-drop-me", "x-drop-me": "1", "x-keep-me": "1", te: "trailers" },
      });
      req.on("response", resolve).on("error", reject).end();
    });
    answer.resume();
    expect(seen[0]!["x-keep-me"]).toBe("1");
    expect(seen[0]!["x-drop-me"]).toBeUndefined();
    expect(seen[0]!.te).toBeUndefined();
    expect(answer.headers["x-private-hop"]).toBeUndefined();
    expect(answer.headers["keep-alive"]).not.toBe("timeout=1");
    expect(endToEndHeaders(["Connection", "close, X-A", "X-A", "1", "X-B", "2", "Upgrade", "h2c"])).toEqual([
      "X-B",
      "2",
    ]);
  });

  it("streams the answer: the first part arrives before the upstream has finished", async () => {
    let finish = () => {};
    const origin = await proxied((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<p>first</p>");
      finish = () => res.end("<p>last</p>");
    });
    const res = await fetch(`${origin}/`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("<p>first</p>");
    finish();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("<p>last</p>");
  });

  it("answers 502 with its message when nothing listens on the socket", async () => {
    const origin = await proxied(null);
    const res = await fetch(`${origin}/deliveries`);
    expect(res.status).toBe(502);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe("the dashboard is not available\n");
  });

  it("cuts the answer off when the upstream dies mid-response", async () => {
    const origin = await proxied((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const res = await fetch(`${origin}/`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it("ends the upstream request when the client goes away", async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    const origin = await proxied((_req, res) => {
      res.writeHead(200);
      res.write("waiting");
      res.on("close", upstreamClosed);
    });
    const controller = new AbortController();
    const res = await fetch(`${origin}/`, { signal: controller.signal });
    await res.body!.getReader().read();
    controller.abort();
    await closed;
  });
});
