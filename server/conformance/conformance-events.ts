// Typed lifecycle events of conformance runs (HOUSE-STYLE habit 11): the live
// view and the tests wait on them instead of polling or sleeping. On a
// globalThis slot: runs start from tRPC inside Next's bundle, tests and the
// CLI path import the server copy; both must share one emitter.
import { EventEmitter } from "node:events";
import type { RunProgress } from "./run-checks.ts";

export type ConformanceEvents = {
  "run:progress": [runId: string, progress: RunProgress];
  "run:finished": [runId: string, status: "passed" | "failed" | "error"];
};

const SLOT = Symbol.for("incident-workbench.conformance-events");
const holder = globalThis as typeof globalThis & { [SLOT]?: EventEmitter<ConformanceEvents> };

export function conformanceEvents(): EventEmitter<ConformanceEvents> {
  return (holder[SLOT] ??= new EventEmitter<ConformanceEvents>().setMaxListeners(100));
}

/** Resolves with the run's final status once it finishes. */
export function waitForRunFinished(runId: string): Promise<"passed" | "failed" | "error"> {
  return new Promise((resolve) => {
    const onFinished = (id: string, status: "passed" | "failed" | "error") => {
      if (id !== runId) return;
      conformanceEvents().off("run:finished", onFinished);
      resolve(status);
    };
    conformanceEvents().on("run:finished", onFinished);
  });
}
