import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { FORCED_EXIT_CODE, onStopSignals, SAME_SIGNAL_MS } from "./stop-signals.ts";

function setUp() {
  const source = new EventEmitter();
  let nowMs = 0;
  const stop = vi.fn();
  const exit = vi.fn();
  const remove = onStopSignals(stop, {
    source: source as unknown as NodeJS.Process,
    now: () => nowMs,
    exit,
  });
  const signal = (name: "SIGINT" | "SIGTERM", atMs: number) => {
    nowMs = atMs;
    source.emit(name);
  };
  return { source, stop, exit, remove, signal };
}

describe("onStopSignals", () => {
  it("stops cleanly on the first signal and takes a copy within the window as the same one", () => {
    const { stop, exit, signal } = setUp();
    signal("SIGINT", 0);
    signal("SIGINT", 30); // a runner relaying the same Ctrl-C
    signal("SIGINT", SAME_SIGNAL_MS - 1);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
  });

  it("a later signal stops at once with 130", () => {
    const { stop, exit, signal } = setUp();
    signal("SIGTERM", 0);
    signal("SIGINT", SAME_SIGNAL_MS);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(FORCED_EXIT_CODE);
  });

  it("removes its handlers", () => {
    const { source, remove, stop, signal } = setUp();
    remove();
    signal("SIGINT", 0);
    expect(stop).not.toHaveBeenCalled();
    expect(source.listenerCount("SIGINT") + source.listenerCount("SIGTERM")).toBe(0);
  });
});
