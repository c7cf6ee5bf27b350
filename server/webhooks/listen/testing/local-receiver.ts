// A receiver under development on 127.0.0.1 for listener tests: declares every v3 flag at /about,
// answers /health, records each delivery with its Service-Request-Id, and answers after `delayMs`.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { FULL_ABOUT } from "../../../conformance/testing/fixture-receiver.ts";

export type LocalDelivery = { method: string; path: string; requestId: string; body: unknown; authorization: string };

export async function startLocalReceiver(options: { delayMs?: number } = {}) {
  const deliveries: LocalDelivery[] = [];
  const discovery: string[] = [];
  let delayMs = options.delayMs ?? 0;
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (raw += c));
    req.on("end", () => {
      const path = req.url ?? "/";
      if (path === "/about" || path === "/health") {
        discovery.push(`${req.method} ${path}`);
        const body = JSON.stringify(path === "/about" ? FULL_ABOUT : { status: "ok" });
        return res.writeHead(200, { "content-type": "application/json" }).end(body);
      }
      deliveries.push({
        method: req.method ?? "",
        path,
        requestId: String(req.headers["service-request-id"] ?? ""),
        body: raw ? JSON.parse(raw) : null,
        authorization: String(req.headers.authorization ?? ""),
      });
      setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deliveries,
    discovery,
    setDelay: (ms: number) => (delayMs = ms),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type LocalReceiver = Awaited<ReturnType<typeof startLocalReceiver>>;
