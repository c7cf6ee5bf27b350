// Who may reach the dashboard (every path Next serves: not a protocol surface, not the
// workbench API of workbench-api.ts, whose tRPC procedures check the caller themselves):
// the sign-in paths (/auth/*) are served here; in shared mode every other dashboard
// path needs a workbench session (or an API token), except the portal (its own
// dispatcher session) and Next's static files.
// A page asked for without a session redirects to sign-in and comes back after.
import type http from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Runtime } from "../../runtime.ts";
import { describeRefusal, resolveCaller } from "../../workbench/access/resolve-caller.ts";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "../../platform/db/database-unavailable.ts";
import { dashboardSignInApp } from "./sign-in-app.ts";

/** A dashboard page in shared mode while the database is down: no session can be checked. It looks again every 5 s. */
const DATABASE_DOWN_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${DATABASE_RETRY_AFTER_S}"><title>Database unavailable · Workbench</title></head><body style="font-family:system-ui,sans-serif;margin:3rem;color:#7f1d1d"><h1>The database is unavailable</h1><p>The workbench cannot check your session until it is back. Nothing it acknowledged is lost. This page tries again every ${DATABASE_RETRY_AFTER_S} seconds.</p></body></html>`;

export type DashboardAccess = (req: http.IncomingMessage, res: http.ServerResponse, next: () => unknown) => void;

const OPEN_PREFIXES = ["/portal/", "/_next/static/"];
const OPEN_PATHS = new Set(["/portal", "/icon.svg", "/favicon.ico"]);

export function isSignInPath(pathname: string): boolean {
  return pathname === "/auth" || pathname.startsWith("/auth/");
}

function isOpenInSharedMode(pathname: string): boolean {
  return OPEN_PATHS.has(pathname) || OPEN_PREFIXES.some((p) => pathname.startsWith(p));
}

function headersOf(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const name of ["cookie", "authorization"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return headers;
}

export function createDashboardAccess(runtime: Runtime): DashboardAccess {
  const signIn = getRequestListener(dashboardSignInApp(runtime).fetch);
  return function gateDashboard(req, res, next) {
    const url = req.url ?? "/";
    const pathname = url.split("?", 1)[0]!;
    if (isSignInPath(pathname)) {
      void signIn(req, res);
      return;
    }
    if (runtime.env.ACCESS_MODE === "local" || isOpenInSharedMode(pathname)) {
      next();
      return;
    }
    // A page (or a document) the browser opens itself: the cookie alone; its data comes with the key.
    resolveCaller(runtime, headersOf(req), "navigation").then(
      (resolution) => {
        if ("caller" in resolution) {
          next();
          return;
        }
        res.setHeader("cache-control", "no-store");
        if (pathname.startsWith("/api/") || (req.method !== "GET" && req.method !== "HEAD")) {
          res
            .writeHead(401, { "content-type": "application/json" })
            .end(JSON.stringify({ error: "unauthorized", message: describeRefusal(resolution.refused) }));
          return;
        }
        res.writeHead(302, { location: `/auth/sign-in?next=${encodeURIComponent(url.slice(0, 2000))}` }).end();
      },
      (error: unknown) => {
        if (isDatabaseUnavailable(error)) {
          // Shared mode cannot check a session without the database: say so, and look again (docs/database-outages.md).
          if (!res.headersSent)
            res
              .writeHead(503, {
                "content-type": "text/html; charset=utf-8",
                "retry-after": String(DATABASE_RETRY_AFTER_S),
                "cache-control": "no-store",
              })
              .end(DATABASE_DOWN_PAGE);
          return;
        }
        runtime.logger.error({ err: error, path: pathname }, "dashboard access check failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" }).end("The access check failed.");
      },
    );
  };
}
