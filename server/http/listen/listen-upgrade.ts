// GET /api/listen as a WebSocket (docs/listen.md): `workbench listen` connects out to the
// workbench and its integration's traffic comes back over this connection as frames
// (webhooks/listen/). Refused before the upgrade, as JSON {error, error_description} in the
// workbench error table's words: a bad query 400, no or a bad credential 401, a viewer 403, an
// unknown integration 404. Frames are bounded (MAX_FRAME_BYTES) and counted by the session; a
// peer that stops answering pings is cut off, so a laptop asleep shows as disconnected.
import type http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { isAppError } from "../../platform/errors.ts";
import type { Runtime } from "../../runtime.ts";
import { MAX_FRAME_BYTES } from "../../webhooks/listen/listener-frames.ts";
import { openListenerSession } from "../../webhooks/listen/listener-session.ts";
import { authorizeListener, headersOf, LISTEN_PATH, recheckListener } from "./authorize-listener.ts";

/** A ping this often; a peer that has not answered the previous one by then is gone. */
const PING_EVERY_MS = 10_000;
const CLOSE_GRACE_MS = 2_000;

export const isListenPath = (pathname: string) => pathname === LISTEN_PATH;

export function createListenUpgrade(runtime: Runtime) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  return (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    authorizeListener(runtime, req).then(
      (request) =>
        wss.handleUpgrade(req, socket, head, (ws) => {
          serve(runtime, ws, req, request).catch((err: Error) => {
            runtime.logger.error({ err, integration: request.integrationKey }, "listen: could not attach");
            ws.terminate();
          });
        }),
      (error: unknown) => refuse(runtime, socket, error),
    );
  };
}

async function serve(
  runtime: Runtime,
  ws: WebSocket,
  req: http.IncomingMessage,
  request: Awaited<ReturnType<typeof authorizeListener>>,
) {
  const headers = headersOf(req);
  const remoteAddress = req.socket.remoteAddress ?? "unknown";
  const session = await openListenerSession(
    runtime,
    {
      integrationKey: request.integrationKey,
      caller: { kind: request.caller.kind, name: request.caller.name, role: request.caller.role },
      remoteAddress,
      forwardTo: request.forwardTo,
      recheck: () => recheckListener(runtime, headers),
    },
    {
      send: (text) => ws.send(text),
      close: (code, reason) => {
        ws.close(code, reason.slice(0, 120));
        // A peer that does not complete the closing handshake does not hold a stopping process up.
        setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
      },
    },
  );
  let alive = true;
  ws.on("pong", () => (alive = true));
  const pinger = setInterval(() => {
    if (!alive) return ws.terminate();
    alive = false;
    ws.ping();
  }, PING_EVERY_MS);
  ws.on("message", (data, isBinary) => {
    if (isBinary) return session.connection.end(4008, "binary frames are not accepted");
    session.receive((data as Buffer).toString("utf8"));
  });
  ws.on("error", () => ws.terminate());
  ws.on("close", () => {
    clearInterval(pinger);
    void session.closed();
  });
  if (ws.readyState !== ws.OPEN) void session.closed();
}

/** The refusal as a plain HTTP answer on the socket that asked to upgrade. */
function refuse(runtime: Runtime, socket: Duplex, error: unknown) {
  const known = isAppError(error);
  if (!known) runtime.logger.error({ err: error }, "listen: refused on an internal error");
  const status = known ? error.status : 500;
  const body = JSON.stringify({
    error: known ? error.wireCode : "InternalServerError",
    error_description: known ? error.message : "The workbench could not attach the listener; see its log.",
  });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  500: "Internal Server Error",
};
