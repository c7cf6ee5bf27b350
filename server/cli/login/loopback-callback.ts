// The CLI's one-shot listener of `workbench login` (RFC 8252 7.3, loopback redirect): 127.0.0.1 on
// a port the system picks, answering GET /callback only. The workbench sends the browser here after
// Authorize (code + state) or Cancel (error=access_denied + state). The first /callback with the
// right state settles the login; the page the browser is left on says how it ended.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { timingSafeEqual } from "node:crypto";

export type LoopbackCallback = {
  port: number;
  /**
   * Waits for the browser. `finish` turns the code into the login (and says what the browser's tab
   * reads); a cancel, a wrong state, a failed `finish` or the timeout rejects with a one-line reason.
   */
  wait: <T>(options: {
    timeoutMs: number;
    finish: (code: string) => Promise<{ result: T; message: string }>;
  }) => Promise<T>;
  close: () => void;
};

const waited = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`);

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

// The look of the workbench's own sign-in pages (render-auth-pages.ts), so the tab the login ends on reads as one flow.
const STYLE =
  "body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a;display:grid;place-items:center;min-height:100vh;margin:0}" +
  "main{background:#fff;border:1px solid #cbd5e1;border-radius:.5rem;padding:2rem;width:min(24rem,90vw)}" +
  "h1{font-size:1.25rem;margin:0 0 .5rem}p{color:#475569;font-size:.875rem}";

function answer(res: http.ServerResponse, status: number, title: string, message: string) {
  const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  res
    .writeHead(status, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
    })
    .end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escape(title)} · Workbench CLI</title><style>${STYLE}</style></head>` +
        `<body><main><h1>${escape(title)}</h1><p role="status">${escape(message)}</p></main></body></html>`,
    );
}

export async function startLoopbackCallback(expectedState: string): Promise<LoopbackCallback> {
  let onRequest: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) =>
    res.writeHead(503).end();
  const server = http.createServer((req, res) => onRequest(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const close = () => {
    server.close();
    server.closeAllConnections();
  };
  return {
    port: (server.address() as AddressInfo).port,
    close,
    wait: <T>({
      timeoutMs,
      finish,
    }: {
      timeoutMs: number;
      finish: (code: string) => Promise<{ result: T; message: string }>;
    }) =>
      new Promise<T>((resolve, reject) => {
        let settled = false;
        const timer = setTimeout(() => {
          settled = true;
          reject(new Error(`no answer from the browser within ${waited(timeoutMs)}: run \`workbench login\` again.`));
        }, timeoutMs);
        const settle = () => {
          settled = true;
          clearTimeout(timer);
        };
        onRequest = (req, res) => {
          const url = new URL(req.url ?? "/", "http://127.0.0.1");
          if (req.method !== "GET" || url.pathname !== "/callback" || settled) return void res.writeHead(404).end();
          settle();
          if (!sameText(url.searchParams.get("state") ?? "", expectedState)) {
            answer(
              res,
              400,
              "Login failed",
              "This answer does not belong to the login the CLI started (state mismatch).",
            );
            return reject(
              new Error(
                "the browser's answer did not carry this login's state (state mismatch): run `workbench login` again.",
              ),
            );
          }
          const code = url.searchParams.get("code");
          if (!code) {
            answer(res, 200, "Login cancelled", "Nothing was authorised. You can close this tab.");
            return reject(new Error("the login was cancelled in the browser."));
          }
          finish(code).then(
            ({ result, message }) => {
              answer(res, 200, "Logged in", message);
              resolve(result);
            },
            (error: unknown) => {
              const reason = error instanceof Error ? error : new Error(String(error));
              answer(res, 400, "Login failed", `${reason.message} See the terminal.`);
              reject(reason);
            },
          );
        };
      }),
  };
}
