// Typed lifecycle events of conformance runs (CONTRIBUTING.md, 'Typed lifecycle events'): the live
// view and the tests wait on them instead of polling or sleeping. On a
// globalThis slot: runs start from tRPC inside Next's bundle, tests and the
// CLI path import the server copy; both must share one emitter.
import { EventEmitter } from "node:events";
import type { DbClient } from "../platform/db/client.ts";
import type { RunProgress } from "./run-checks.ts";
import { processSingleton } from "../platform/process-singleton.ts";

type FinalStatus = "passed" | "failed" | "error";

export type ConformanceEvents = {
  "run:progress": [runId: string, progress: RunProgress];
  "run:finished": [runId: string, status: FinalStatus];
};

export function conformanceEvents(): EventEmitter<ConformanceEvents> {
  return processSingleton("conformance-events", () => new EventEmitter<ConformanceEvents>().setMaxListeners(100));
}

/**
 * Resolves with the run's final status once it finishes. With `db`, a run that
 * finished before the listener was attached is seen in its row.
 */
export function waitForRunFinished(runId: string, options: { db?: DbClient } = {}): Promise<FinalStatus> {
  return new Promise((resolve, reject) => {
    const onFinished = (id: string, status: FinalStatus) => {
      if (id !== runId) return;
      conformanceEvents().off("run:finished", onFinished);
      resolve(status);
    };
    conformanceEvents().on("run:finished", onFinished);
    options.db?.conformanceRun.findUnique({ where: { id: runId }, select: { status: true } }).then((row) => {
      if (row && row.status !== "running") onFinished(runId, row.status as FinalStatus);
    }, reject);
  });
}
