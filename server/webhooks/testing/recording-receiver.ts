// A real local receiver on port 0 for delivery tests: records every request
// (and how many of one incident were in flight at once), answers with whatever
// the test's responder says (default 200).
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";

export type ReceivedRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  incidentId: string | null;
};
export type Responder = (req: ReceivedRequest) => number | Promise<number>;

/** `about`: a declaration GET /about answers (not recorded), so rediscovery after a failure keeps it accepted. */
export async function startRecordingReceiver(options: { tls?: { key: string; cert: string }; about?: unknown } = {}) {
  const received: ReceivedRequest[] = [];
  const inflightByIncident = new Map<string, number>();
  let maxConcurrentPerIncident = 0;
  let responder: Responder = () => 200;

  const handler: http.RequestListener = (req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (raw += c));
    req.on("end", () => void answer());
    async function answer() {
      const path = req.url ?? "";
      if (options.about !== undefined && req.method === "GET" && path.endsWith("/about"))
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(options.about));
      const incidentId =
        /\/v3\/incidents\/([0-9a-f-]{36})/.exec(path)?.[1] ??
        (raw ? ((JSON.parse(raw) as { incident?: { id?: string } }).incident?.id ?? null) : null);
      const r: ReceivedRequest = {
        method: req.method ?? "",
        path,
        headers: req.headers,
        body: raw ? JSON.parse(raw) : null,
        incidentId,
      };
      received.push(r);
      if (incidentId) {
        const n = (inflightByIncident.get(incidentId) ?? 0) + 1;
        inflightByIncident.set(incidentId, n);
        maxConcurrentPerIncident = Math.max(maxConcurrentPerIncident, n);
      }
      let status: number;
      try {
        status = await responder(r);
      } finally {
        if (incidentId) inflightByIncident.set(incidentId, inflightByIncident.get(incidentId)! - 1);
      }
      if (status === 0) return; // hang: never answer (the test kills or times out the sender)
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ ok: status === 200 }));
    }
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    received,
    get maxConcurrentPerIncident() {
      return maxConcurrentPerIncident;
    },
    respondWith(r: Responder) {
      responder = r;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type RecordingReceiver = Awaited<ReturnType<typeof startRecordingReceiver>>;
