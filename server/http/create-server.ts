import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import { isProtocolPath } from "./protocol-app.ts";
import type { DashboardAccess } from "./dashboard-access/dashboard-access.ts";

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

/** One origin: protocol prefixes to Hono, the rest to Next's request handler. */
export function createWorkbenchServer(options: { protocolApp: Hono; nextHandler?: NodeHandler; dashboardAccess?: DashboardAccess; nextUpgrade?: (req: http.IncomingMessage, socket: import("node:stream").Duplex, head: Buffer) => unknown }) {
  const hono = getRequestListener(options.protocolApp.fetch);
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?", 1)[0]!;
    if (isProtocolPath(pathname) || !options.nextHandler) {
      void hono(req, res);
      return;
    }
    const nextHandler = options.nextHandler;
    // Everything else is the dashboard's: its sign-in paths, and in shared mode the session check first.
    if (options.dashboardAccess) options.dashboardAccess(req, res, () => void nextHandler(req, res));
    else void nextHandler(req, res);
  });
  if (options.nextUpgrade) server.on("upgrade", options.nextUpgrade);
  // Keep-alive slightly above common load balancers' idle timeouts.
  server.keepAliveTimeout = 65_000;
  return server;
}
