// `workbench listen`'s connection (docs/listen.md): out to the workbench's /api/listen as a
// WebSocket, each request frame forwarded (forward-request.ts) and answered, a line printed per
// request. A dropped connection is retried by itself with backoff (0.5 s doubling to 15 s); the
// workbench keeps the integration routed here meanwhile, so nothing is lost. What a retry cannot
// fix (a refused credential, an unknown integration, another listen taking over) ends the command
// with one line and exit 1; Ctrl-C detaches (the integration goes back to its configured URL).
import WebSocket from "ws";
import { LISTEN_CLOSE, MAX_FRAME_BYTES, type TWorkbenchFrame } from "../../webhooks/listen/listener-frames.ts";
import { onStopSignals } from "../stop-signals.ts";
import { forwardRequest } from "./forward-request.ts";
import type { ListenerPrinter } from "./listener-lines.ts";

const BACKOFF_MS = { first: 500, max: 15_000 };
const FINAL_CLOSES = new Set<number>([
  LISTEN_CLOSE.takenOver,
  LISTEN_CLOSE.detachedElsewhere,
  LISTEN_CLOSE.credentialRefused,
  LISTEN_CLOSE.integrationGone,
  LISTEN_CLOSE.protocolViolation,
]);

export type ListenOptions = {
  workbenchUrl: string;
  token: string | undefined;
  integration: string;
  forwardTo: string;
  print: ListenerPrinter;
};

/** Resolves with the exit code once the command is over: 0 detached, 1 refused or taken over. */
export function runListener(options: ListenOptions): Promise<number> {
  const { print } = options;
  const url = new URL("/api/listen", options.workbenchUrl.replace(/^http/, "ws"));
  url.searchParams.set("integration", options.integration);
  url.searchParams.set("forward_to", options.forwardTo);
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  let delay = BACKOFF_MS.first;
  let current: WebSocket | null = null;
  let detaching = false;
  return new Promise<number>((finish) => {
    const connect = () => {
      const ws = new WebSocket(url, { headers, maxPayload: MAX_FRAME_BYTES, handshakeTimeout: 10_000 });
      current = ws;
      let handled = false; // answered before any upgrade: said and decided there
      let lastError = "";
      ws.on("unexpected-response", (_req, res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = res.statusCode ?? 0;
          let described = `the workbench answered ${status}`;
          try {
            described = (JSON.parse(text) as { error_description?: string }).error_description ?? described;
          } catch {
            /* not JSON: a proxy's page */
          }
          handled = true;
          ws.terminate();
          if (status >= 400 && status < 500) {
            print({ kind: "refused", message: described });
            return finish(1);
          }
          retry(described);
        });
      });
      ws.on("message", (data) => {
        let frame: TWorkbenchFrame;
        try {
          frame = JSON.parse(String(data)) as TWorkbenchFrame;
        } catch {
          return;
        }
        void handle(ws, frame);
      });
      ws.on("error", (e: Error & { code?: string }) => (lastError = e.code ? `${e.code}: ${e.message}` : e.message));
      ws.on("close", (code, reason) => {
        if (handled || ws !== current) return;
        const why = reason.toString("utf8") || lastError || `connection closed (${code})`;
        if (detaching || code === LISTEN_CLOSE.detached) {
          if (code === LISTEN_CLOSE.detached) print({ kind: "detached", integration: options.integration });
          return finish(0);
        }
        if (FINAL_CLOSES.has(code)) {
          print({ kind: "ended", message: why });
          return finish(1);
        }
        retry(why);
      });
    };
    const retry = (why: string) => {
      if (detaching) return finish(0);
      print({ kind: "reconnecting", message: why, inMs: delay });
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, BACKOFF_MS.max);
    };
    const handle = async (ws: WebSocket, frame: TWorkbenchFrame) => {
      if (frame.type === "attached") {
        delay = BACKOFF_MS.first;
        return print({ kind: "attached", integration: frame.integration, forwardTo: options.forwardTo });
      }
      const answer = await forwardRequest(options.forwardTo, frame);
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(answer));
      print({ kind: "forwarded", method: frame.method, path: frame.path, answer });
    };
    // A second Ctrl-C stops at once (stop-signals.ts).
    const detach = () => {
      detaching = true;
      const ws = current;
      if (ws?.readyState !== WebSocket.OPEN) {
        print({
          kind: "ended",
          message: "not connected: the integration stays routed to its listener until one detaches",
        });
        return finish(1);
      }
      ws.send(JSON.stringify({ type: "detach" }));
      setTimeout(() => finish(0), 5_000).unref();
    };
    onStopSignals(detach);
    connect();
  });
}
