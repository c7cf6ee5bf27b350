import { AsyncLocalStorage } from "node:async_hooks";
import { EventEmitter } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { IncomingMessage, ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { disableNextContextWhenIdle } from "./next-async-context.ts";

const GRACE_MS = 30;
const PAST_GRACE_MS = GRACE_MS * 4;

// Code that lives where Next's does (a node_modules/next package), entering a store as Next does.
const root = mkdtempSync(path.join(os.tmpdir(), "next-context-"));
const nextDir = path.join(root, "node_modules", "next");
mkdirSync(nextDir, { recursive: true });
writeFileSync(path.join(nextDir, "enter.cjs"), "exports.enter = (store, value, fn) => store.run(value, fn);\n");
const nextCode = createRequire(import.meta.url)(path.join(nextDir, "enter.cjs")) as {
  enter: <T>(store: AsyncLocalStorage<string>, value: string, fn: () => T) => T;
};
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A continuation created inside the store's context and run later, when `read` is called: what it
 * sees then is what a late continuation of a request would see (nothing once the store is disabled).
 */
function continuation(store: AsyncLocalStorage<string>) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const seen = gate.then(() => store.getStore());
  return {
    read: () => {
      release();
      return seen;
    },
  };
}

function exchange() {
  const res = new EventEmitter();
  return { req: {} as IncomingMessage, res: res as unknown as ServerResponse, close: () => res.emit("close") };
}

describe("disableNextContextWhenIdle", () => {
  it("disables the stores Next entered once no request has been in flight for the grace period", async () => {
    const store = new AsyncLocalStorage<string>();
    const handler = disableNextContextWhenIdle(async () => {}, GRACE_MS);

    const first = exchange();
    await handler(first.req, first.res);
    const whileOpen = nextCode.enter(store, "page", () => continuation(store));
    const afterClose = nextCode.enter(store, "page", () => continuation(store));
    await sleep(PAST_GRACE_MS);
    expect(await whileOpen.read()).toBe("page"); // the handler settled, but the response is still open

    first.close();
    const withinGrace = nextCode.enter(store, "page", () => continuation(store));
    expect(await withinGrace.read()).toBe("page");
    await sleep(PAST_GRACE_MS);
    expect(await afterClose.read()).toBeUndefined();

    // The next request enters the store again, and it holds as before.
    const second = exchange();
    await handler(second.req, second.res);
    expect(nextCode.enter(store, "next", () => store.getStore())).toBe("next");
    expect(await nextCode.enter(store, "next", () => continuation(store)).read()).toBe("next");
    second.close();
  });

  it("waits for the handler to settle as well as for the response to close", async () => {
    const store = new AsyncLocalStorage<string>();
    let settle!: () => void;
    const handler = disableNextContextWhenIdle(() => new Promise<void>((resolve) => (settle = resolve)), GRACE_MS);
    const ex = exchange();
    void handler(ex.req, ex.res);
    const late = nextCode.enter(store, "page", () => continuation(store));
    const later = nextCode.enter(store, "page", () => continuation(store));
    ex.close();
    await sleep(PAST_GRACE_MS);
    expect(await late.read()).toBe("page"); // closed, but Next's handler is still running
    settle();
    await sleep(PAST_GRACE_MS);
    expect(await later.read()).toBeUndefined();
  });

  it("keeps the stores while any request is in flight, and counts a handler that throws as settled", async () => {
    const store = new AsyncLocalStorage<string>();
    const handler = disableNextContextWhenIdle((req) => {
      if ((req as { fail?: boolean }).fail) throw new Error("render failed");
    }, GRACE_MS);
    const a = exchange();
    const b = exchange();
    handler(a.req, a.res);
    expect(() => handler({ fail: true } as unknown as IncomingMessage, b.res)).toThrow("render failed");
    const meanwhile = nextCode.enter(store, "page", () => continuation(store));
    const atLast = nextCode.enter(store, "page", () => continuation(store));
    a.close();
    await sleep(PAST_GRACE_MS);
    expect(await meanwhile.read()).toBe("page"); // b is still open
    b.close();
    await sleep(PAST_GRACE_MS);
    expect(await atLast.read()).toBeUndefined();
  });

  it("never touches a store first entered by code other than Next's", async () => {
    const own = new AsyncLocalStorage<string>();
    const handler = disableNextContextWhenIdle(() => {}, GRACE_MS);
    const ex = exchange();
    handler(ex.req, ex.res);
    const ours = own.run("ours", () => continuation(own));
    nextCode.enter(own, "later entered by Next", () => {}); // the first entry decided
    ex.close();
    await sleep(PAST_GRACE_MS);
    expect(await ours.read()).toBe("ours");
  });
});
