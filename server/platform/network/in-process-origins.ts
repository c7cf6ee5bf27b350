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

/**
 * The record @hono/node-server's Response (the global `Response` once its request listener exists)
 * keeps of a response built from a body already in memory: [status, body, headers as given]. It is
 * not exported; it is found by its symbol's description and checked for that shape.
 */
let cacheSymbol: symbol | undefined;
function lightweightRecord(response: Response): [number, unknown, unknown] | undefined {
  const own = response as unknown as Record<symbol, unknown>;
  cacheSymbol ??= Object.getOwnPropertySymbols(response).find((s) => s.description === "cache");
  const record = cacheSymbol === undefined ? undefined : own[cacheSymbol];
  return Array.isArray(record) && record.length === 3 && typeof record[0] === "number"
    ? (record as [number, unknown, unknown])
    : undefined;
}

/**
 * An in-process answer's body as bytes. Reading it as a fetch Response (`arrayBuffer()`) makes
 * @hono/node-server build an undici Response, with a web stream around the body, only to read it
 * back: ~40 µs a delivery here, more than the rest of the answer's handling. A body the handler
 * gave as a string or bytes is taken as given; anything else (a stream, a real fetch Response, a
 * version of the library that keeps its record otherwise) is read as a fetch Response.
 */
export async function responseBytes(response: Response): Promise<Buffer> {
  const record = lightweightRecord(response);
  if (record) {
    const body = record[1];
    if (typeof body === "string") return Buffer.from(body, "utf8");
    if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    if (body === null) return Buffer.alloc(0);
  }
  return Buffer.from(await response.arrayBuffer());
}
