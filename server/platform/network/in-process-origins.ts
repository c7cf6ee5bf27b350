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

/**
 * The request an in-process handler is given: what a Hono app reads of a fetch Request (url,
 * method, headers, the body as text, JSON or bytes, an abort signal), over a string body. A fetch
 * Request built for each delivery (web streams for a body already in memory) cost about as much as
 * the rest of the in-process exchange. The body always has a content-length, so a body limit never
 * needs its stream.
 */
export class InProcessRequest {
  readonly headers: Headers;
  #body: string | null;
  #used = false;
  #signal: AbortController | undefined;
  constructor(
    readonly url: string,
    readonly method: string,
    headers: Record<string, string>,
    body: string | null,
    private readonly connection: Connection,
  ) {
    const byName = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    this.headers = {
      get: (name: string) => byName.get(name.toLowerCase()) ?? null,
      has: (name: string) => byName.has(name.toLowerCase()),
      forEach: (fn: (value: string, name: string) => void) => byName.forEach(fn),
      entries: () => byName.entries(),
      keys: () => byName.keys(),
      values: () => byName.values(),
      [Symbol.iterator]: () => byName.entries(),
    } as unknown as Headers;
    this.#body = body;
  }
  get bodyUsed() {
    return this.#used;
  }
  /** Aborted when the connection closes (the caller's deadline, or the handler dropping it). */
  get signal(): AbortSignal {
    if (!this.#signal) {
      const controller = (this.#signal = new AbortController());
      if (this.connection.destroyed) controller.abort();
      else this.connection.once("close", () => controller.abort());
    }
    return this.#signal.signal;
  }
  text(): Promise<string> {
    if (this.#used) return Promise.reject(new TypeError("Body is unusable: it has already been read"));
    this.#used = true;
    return Promise.resolve(this.#body ?? "");
  }
  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.text().then((text) => new TextEncoder().encode(text).buffer);
  }
}

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
