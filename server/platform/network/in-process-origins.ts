// Origins this process serves itself. The workbench delivers to its own embedded receivers at
// PUBLIC_URL; when this process is the server of that origin (it always runs the receivers), a
// request to it is handed to the HTTP app as a fetch Request instead of going out through a loopback
// socket and back in (docs/decisions/0028). Only the workbench's own targets use it: a user-given
// URL always goes out over the network, under the outbound policy.
import { EventEmitter } from "node:events";
import { processSingleton } from "../process-singleton.ts";

/**
 * The request's connection as a handler sees it: what a simulated network fault needs (drop the
 * connection; hold until the caller gives up). A node:net Socket has the same shape.
 */
export type Connection = {
  readonly destroyed: boolean;
  destroy(): void;
  once(event: "close", listener: () => void): unknown;
};

/** An in-process request's connection: destroyed by the handler (a dropped connection) or by the caller (its deadline). */
export class InProcessConnection extends EventEmitter<{ close: [] }> implements Connection {
  destroyed = false;
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit("close");
  }
}

export type InProcessHandler = (request: Request, bindings: { connection: Connection }) => Response | Promise<Response>;

const origins = processSingleton("in-process-origins", () => new Map<string, InProcessHandler>());

/** Serve `origin` in this process while the server that owns it listens; returns the undo. */
export function serveInProcess(origin: string, handler: InProcessHandler): () => void {
  const key = new URL(origin).origin;
  origins.set(key, handler);
  return () => {
    if (origins.get(key) === handler) origins.delete(key);
  };
}

/** The handler of an origin this process serves, if it does. */
export function inProcessHandler(origin: string): InProcessHandler | undefined {
  return origins.get(origin);
}
