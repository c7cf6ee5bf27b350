import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import type { Env } from "../platform/env.ts";
import { serveInProcess } from "../platform/network/in-process-origins.ts";
import { isProtocolPath } from "./protocol-app.ts";
import { isWorkbenchApiPath } from "./workbench-api.ts";
import { createWorkbenchGuard } from "./workbench-guard.ts";
import { isListenPath } from "./listen/listen-upgrade.ts";
import type { DashboardAccess } from "./dashboard-access/dashboard-access.ts";

/** A Node request listener: what Next's request handler is, and what wraps or stands in for it. */
export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;
export type UpgradeHandler = (req: http.IncomingMessage, socket: import("node:stream").Duplex, head: Buffer) => unknown;

/**
 * One origin: the request guard first, then protocol prefixes to Hono, the workbench API
 * (/api/health, /api/trpc: workbench-api.ts) to its own Hono app, the rest to Next's request
 * handler — behind the dashboard's access check (its sign-in paths; in shared mode a session).
 */
export function createWorkbenchServer(options: {
  env: Env;
  protocolApp: Hono;
  workbenchApiApp: Hono;
  nextHandler?: NodeHandler;
  dashboardAccess?: DashboardAccess;
  nextUpgrade?: UpgradeHandler;
  /** GET /api/listen's WebSocket (listen/listen-upgrade.ts). */
  listenUpgrade?: UpgradeHandler;
}) {
  const hono = getRequestListener(options.protocolApp.fetch);
  const workbenchApi = getRequestListener(options.workbenchApiApp.fetch);
  const guard = createWorkbenchGuard(options.env);
  const server = http.createServer((req, res) => {
    if (guard.guardRequest(req, res)) return;
    const pathname = (req.url ?? "/").split("?", 1)[0]!;
    if (isWorkbenchApiPath(pathname)) {
      void workbenchApi(req, res);
      return;
    }
    if (isProtocolPath(pathname) || !options.nextHandler) {
      void hono(req, res);
      return;
    }
    const nextHandler = options.nextHandler;
    const toNext = () => {
      guard.pagePolicy(req, res);
      void nextHandler(req, res);
    };
    if (options.dashboardAccess) options.dashboardAccess(req, res, toNext);
    else toNext();
  });
  const { nextUpgrade, listenUpgrade } = options;
  if (nextUpgrade || listenUpgrade) {
    server.on("upgrade", (req: http.IncomingMessage, socket: import("node:stream").Duplex, head: Buffer) => {
      if (!guard.acceptsUpgrade(req)) return socket.destroy();
      // `workbench listen`'s connection (docs/listen.md); any other upgrade is Next's (dev reload).
      if (isListenPath((req.url ?? "/").split("?", 1)[0]!))
        return listenUpgrade ? listenUpgrade(req, socket, head) : socket.destroy();
      return nextUpgrade ? nextUpgrade(req, socket, head) : socket.destroy();
    });
  }
  // Keep-alive slightly above common load balancers' idle timeouts.
  server.keepAliveTimeout = 65_000;
  return server;
}

/** Listens, or rejects with what the user can act on: the port taken, or not open to this user. */
export function listenOn(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      if (error.code === "EADDRINUSE")
        reject(
          new Error(`${where} is already in use (another workbench?): stop what listens there, or set PORT`, {
            cause: error,
          }),
        );
      else if (error.code === "EACCES") reject(new Error(`${where} may not be listened on by this user: set PORT`));
      else if (error.code === "EADDRNOTAVAIL") reject(new Error(`${host} is not an address of this machine: set HOST`));
      else reject(error);
    };
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
}

/**
 * Stops accepting and resolves once every connection has ended. `close` alone ends only the
 * connections idle at that moment: one whose response finishes later would stay open for the
 * keep-alive timeout (65 s), and its client could send more requests on it. So while the server
 * drains, idle connections are closed every few milliseconds, and a request that arrives is
 * answered with `Connection: close`. A response still being written when `forceAfterMs` runs out is
 * cut off (`onForce` is told first).
 */
export function drainServer(
  server: http.Server,
  options: { forceAfterMs: number; onForce: () => void },
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.prependListener("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.setHeader("connection", "close");
  });
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
  const force = setTimeout(() => {
    options.onForce();
    server.closeAllConnections();
  }, options.forceAfterMs);
  return closed.finally(() => {
    clearInterval(sweep);
    clearTimeout(force);
  });
}

/** How often a draining server closes the connections whose last response has ended. */
const DRAIN_SWEEP_MS = 10;

/**
 * This process serves its own PUBLIC_URL's protocol paths in-process too: its delivery engine calls
 * its embedded receivers without a loopback socket (docs/decisions/0028). Not when PUBLIC_URL has a
 * path (a proxy in front strips it: only a request through it reaches the right route). Returns the undo.
 */
export function serveOwnOriginInProcess(env: Pick<Env, "PUBLIC_URL">, protocolApp: Hono): () => void {
  const own = new URL(env.PUBLIC_URL);
  if (own.pathname.replace(/\/+$/, "") !== "") return () => {};
  return serveInProcess(own.origin, (request, bindings) => protocolApp.fetch(request, bindings));
}
