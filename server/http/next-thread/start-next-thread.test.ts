// The main thread's handle on the dashboard's thread, over a stand-in thread that speaks the same
// messages (testing/fake-next-thread.mjs); the real one, with Next, serves every end-to-end test.
import http from "node:http";
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Logger } from "../../platform/logger.ts";
import { startNextThread, startNextThreadEarly, takeNextThread, type PreparedNextThread } from "./start-next-thread.ts";

const ENTRY = new URL("./testing/fake-next-thread.mjs", import.meta.url);
const DATABASE = { databaseUrl: "postgresql://db.example/wb", databaseMode: "external" as const };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  delete process.env.FAKE_NEXT_THREAD;
});

function fakeLogger() {
  const error = vi.fn();
  return { logger: { error } as unknown as Logger, error };
}

/** A server on a loopback port whose every request goes to `handler`. */
async function front(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function started(options: { stopTimeoutMs?: number } = {}): Promise<PreparedNextThread> {
  const thread = await startNextThread({ entry: ENTRY, ...options });
  cleanups.push(thread.stop);
  return thread;
}

describe("the dashboard's thread", () => {
  it("serves through the handler once told where the database is, and stops cleanly", async () => {
    const { logger, error } = fakeLogger();
    const thread = await started();
    const origin = await front(await thread.serve(DATABASE, logger));
    const res = await fetch(`${origin}/deliveries?page=2`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: "/deliveries?page=2", ...DATABASE });
    await thread.stop();
    expect(error).not.toHaveBeenCalled();
  });

  it("keeps its socket in a folder only this user may enter, and removes it on stop", async () => {
    const thread = await started();
    const origin = await front(await thread.serve(DATABASE, fakeLogger().logger));
    const { socketPath } = (await (await fetch(`${origin}/socket`)).json()) as { socketPath: string };
    const folder = path.dirname(socketPath);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(socketPath).isSocket()).toBe(true);
    await thread.stop();
    expect(existsSync(folder)).toBe(false);
  });

  it("removes the socket folders of workbenches that ended without removing theirs, and only those", async () => {
    const ended = spawnSync(process.execPath, ["-e", ""]).pid;
    const left = await mkdtemp(path.join(os.tmpdir(), `workbench-next-${ended}-`));
    await writeFile(path.join(left, "next.sock"), "");
    const running = await mkdtemp(path.join(os.tmpdir(), `workbench-next-${process.pid}-`));
    const unrelated = await mkdtemp(path.join(os.tmpdir(), `workbench-next-notapid-`));
    cleanups.push(async () => {
      for (const folder of [left, running, unrelated]) await rm(folder, { recursive: true, force: true });
    });
    const thread = await started();
    const origin = await front(await thread.serve(DATABASE, fakeLogger().logger));
    const { socketPath } = (await (await fetch(`${origin}/socket`)).json()) as { socketPath: string };
    expect(path.basename(path.dirname(socketPath))).toMatch(new RegExp(`^workbench-next-${process.pid}-`));
    expect(existsSync(left)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
  });

  it("rejects the start with the thread's reason when Next cannot prepare", async () => {
    process.env.FAKE_NEXT_THREAD = "fail-prepare";
    await expect(startNextThread({ entry: ENTRY })).rejects.toThrow(
      "the dashboard could not start: Next found no build",
    );
  });

  it("rejects serve with the thread's reason when it cannot join the database", async () => {
    process.env.FAKE_NEXT_THREAD = "fail-serve";
    const thread = await started();
    await expect(thread.serve(DATABASE, fakeLogger().logger)).rejects.toThrow(
      "no database at postgresql://db.example/wb",
    );
  });

  it("answers 502 and logs once when the thread ends while serving", async () => {
    const { logger, error } = fakeLogger();
    const thread = await started();
    const origin = await front(await thread.serve(DATABASE, logger));
    await fetch(`${origin}/crash`).catch(() => {});
    await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(1));
    expect(error.mock.calls[0]![1]).toBe("the dashboard thread failed");
    const res = await fetch(`${origin}/`);
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(/dashboard is not available.*partner API.*still run/s);
  });

  it("stops at once when the process gives up before the thread served", async () => {
    const thread = await startNextThread({ entry: ENTRY, stopTimeoutMs: 60_000 });
    const began = performance.now();
    await thread.stop();
    expect(performance.now() - began).toBeLessThan(5_000);
  });

  it("ends a thread that does not stop in time", async () => {
    process.env.FAKE_NEXT_THREAD = "hang-stop";
    const thread = await started({ stopTimeoutMs: 100 });
    await thread.serve(DATABASE, fakeLogger().logger);
    const began = performance.now();
    await thread.stop();
    expect(performance.now() - began).toBeLessThan(5_000);
  });

  it("hands over the thread started early, once; a later take starts its own", async () => {
    startNextThreadEarly(ENTRY);
    const early = await takeNextThread(ENTRY);
    cleanups.push(early.stop);
    const later = await takeNextThread(ENTRY);
    cleanups.push(later.stop);
    expect(later).not.toBe(early);
    const { logger } = fakeLogger();
    const [a, b] = [await early.serve(DATABASE, logger), await later.serve(DATABASE, logger)];
    expect(a).not.toBe(b);
  });
});
