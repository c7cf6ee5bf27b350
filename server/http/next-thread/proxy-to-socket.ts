// The main thread's side of the dashboard: every request the server routes to Next is passed, as it
// came, to the dashboard thread's HTTP server on a Unix socket (next-thread.ts), and its answer
// streamed back. Only hop-by-hop headers stay behind: each side's connection is its own.
import http from "node:http";
import type { NodeHandler } from "../create-server.ts";

/** RFC 9110 §7.6.1: the headers that belong to one connection, not to the request or response. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** A raw header list ([name, value, name, value, …]) without hop-by-hop headers or those `Connection` names. */
export function endToEndHeaders(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() === "connection")
      for (const name of raw[i + 1]!.split(",")) named.add(name.trim().toLowerCase());
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

/**
 * A request handler that forwards to the HTTP server listening on `socketPath`. When that server
 * cannot be reached, the answer is a 502 that says so; a response cut off upstream is cut off here.
 * Returns the handler and `close`, which ends the idle connections it keeps to the socket.
 */
export function proxyToSocket(socketPath: string, unavailable: string): { handler: NodeHandler; close: () => void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const handler: NodeHandler = (req, res) => {
    const upstream = http.request(
      { socketPath, agent, method: req.method, path: req.url, headers: endToEndHeaders(req.rawHeaders) },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.rawHeaders));
        answer.pipe(res);
        answer.once("aborted", () => res.destroy());
        answer.once("error", () => res.destroy());
      },
    );
    upstream.once("error", () => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(unavailable);
    });
    // The client went away before the answer ended: so does the request upstream.
    res.once("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };
  return { handler, close: () => agent.destroy() };
}
