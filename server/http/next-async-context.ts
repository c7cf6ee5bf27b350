// Next's async context, switched off while Next serves nothing (decision 0034).
//
// In Node 20 an AsyncLocalStorage that has been entered keeps async hooks on for every promise in
// the process until it is disabled. Next, and the React it bundles, enter theirs on every request
// and never disable them: once a dashboard page has been served, the protocol surfaces and the
// delivery engine pay the hooks on every promise for the rest of the process's life (0032).
//
// This wraps Next's request handler. It counts the requests Next is serving, each from the call
// until its response has closed and the handler has settled; once none has been in flight for a
// grace period, it disables the stores Next and React entered, and the hooks go off with the last
// of them. The next request Next serves enters them again (entering a store enables it), so Next
// sees its stores as it always does while it serves. A store is Next's when the code that first
// entered it is Next's own (its package, or the app it compiled into .next); a store of any other
// code is never touched.
import { AsyncLocalStorage } from "node:async_hooks";
import type { NodeHandler } from "./create-server.ts";

/** How long Next stays idle before its stores are disabled: room for work it finishes after a response. */
export const NEXT_IDLE_GRACE_MS = 1_000;

const NEXT_CODE = /[\\/](?:node_modules[\\/]next|\.next)[\\/]/;

type AnyStore = AsyncLocalStorage<unknown>;
type Enter = (this: AnyStore, ...args: unknown[]) => unknown;

const nextStores = new Set<AnyStore>();
const seen = new WeakSet<AnyStore>();
let watching = false;

/** Notes, at each store's first entry, whether Next's code entered it. Once per process. */
function watchStoresEntered() {
  if (watching) return;
  watching = true;
  const prototype = AsyncLocalStorage.prototype as unknown as Record<"run" | "enterWith", Enter>;
  for (const method of ["run", "enterWith"] as const) {
    const enter = prototype[method];
    const watched: Enter = function (this: AnyStore, ...args: unknown[]) {
      if (!seen.has(this)) {
        seen.add(this);
        if (NEXT_CODE.test(callerFile(watched) ?? "")) nextStores.add(this);
      }
      return enter.apply(this, args);
    };
    prototype[method] = watched;
  }
}

/** The file of the code that called `fn` (V8's call sites, before any source map rewrites them). */
function callerFile(fn: Enter): string | undefined {
  const { prepareStackTrace, stackTraceLimit } = Error;
  try {
    Error.prepareStackTrace = (_error, frames) => frames;
    Error.stackTraceLimit = 1;
    const holder: { stack?: NodeJS.CallSite[] } = {};
    Error.captureStackTrace(holder, fn);
    return holder.stack?.[0]?.getFileName() ?? undefined;
  } finally {
    Error.prepareStackTrace = prepareStackTrace;
    Error.stackTraceLimit = stackTraceLimit;
  }
}

// Next's requests in flight, however many handlers are wrapped: the stores are the process's.
let inFlight = 0;
let idle: NodeJS.Timeout | undefined;

function disableIfStillIdle() {
  if (inFlight === 0) for (const store of nextStores) store.disable();
}

/** Next's request handler, with Next's stores disabled whenever it has been idle for `graceMs`. */
export function disableNextContextWhenIdle(handler: NodeHandler, graceMs = NEXT_IDLE_GRACE_MS): NodeHandler {
  watchStoresEntered();
  const finished = () => {
    if (--inFlight > 0) return;
    clearTimeout(idle);
    idle = setTimeout(disableIfStillIdle, graceMs).unref();
  };
  return (req, res) => {
    inFlight++;
    clearTimeout(idle);
    let open = 2; // the response's close and the handler's settling
    const settle = () => {
      if (--open === 0) finished();
    };
    res.once("close", settle);
    let result: unknown;
    try {
      result = handler(req, res);
    } catch (error) {
      settle();
      throw error;
    }
    Promise.resolve(result).then(settle, settle);
    return result;
  };
}
