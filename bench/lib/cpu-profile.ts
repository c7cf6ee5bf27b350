// Reading a V8 CPU profile (`node --cpu-prof`, as BENCH_SERVER_NODE_ARGS passes it to a bench's
// server): where the thread's time went, by source file and function, in the seconds it was busy,
// and what its longest tasks were made of. Frames of a bundle with a source map (dist/server/*.mjs)
// are named by their TypeScript source. Used by bench/profile.ts.
import { readFileSync, existsSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

export type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
export type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
export type CpuProfile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

/** A frame's place: `file` (a source path, a node: module or a native label) and `name` (function:line). */
export type Place = { file: string; name: string };

const IDLE = new Set(["(idle)", "(program)"]);

/** Names frames by their original source where the script has a source map next to it. */
export function placeResolver(): (frame: CallFrame) => Place {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (url: string) => {
    if (!maps.has(url)) {
      let map: SourceMap | null = null;
      if (url.startsWith("file://")) {
        const file = `${fileURLToPath(url)}.map`;
        if (existsSync(file)) map = new SourceMap(JSON.parse(readFileSync(file, "utf8")) as never);
      }
      maps.set(url, map);
    }
    return maps.get(url)!;
  };
  return (frame) => {
    if (!frame.url) return { file: frame.functionName, name: frame.functionName };
    const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber) as
      { originalSource?: string; originalLine?: number } | undefined;
    const file = entry?.originalSource
      ? entry.originalSource.replace(/^.*?\/(server|app|node_modules)\//, "$1/")
      : frame.url.replace(/^.*\/node_modules\//, "node_modules/").replace(/^file:\/\/.*\/dist\//, "dist/");
    const line = entry?.originalLine ?? frame.lineNumber;
    return { file, name: `${frame.functionName || "(anonymous)"} ${file}:${line + 1}` };
  };
}

export type Summary = {
  /** Microseconds counted: the busy seconds' samples. */
  totalUs: number;
  busySeconds: number;
  seconds: number;
  selfByFile: Map<string, number>;
  selfByFunction: Map<string, number>;
  inclusiveByFile: Map<string, number>;
  /** Tasks at least `taskMs` long: consecutive samples under one callback of the root. */
  tasks: Array<{ startMs: number; ms: number; root: string }>;
  /** Inclusive time by function within those tasks. */
  inTasksByFunction: Map<string, number>;
  inTasksUs: number;
};

/**
 * Counts only the seconds in which the thread was idle less than `maxIdle` of the time (the load's
 * seconds, not the waits between rows).
 */
export function summarize(
  profile: CpuProfile,
  place: (frame: CallFrame) => Place,
  { maxIdle = 0.35, taskMs = 10 }: { maxIdle?: number; taskMs?: number } = {},
): Summary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const rootId = profile.nodes[0]!.id;
  const places = new Map<number, Place>();
  const placeOf = (id: number) => {
    let p = places.get(id);
    if (!p) places.set(id, (p = place(nodes.get(id)!.callFrame)));
    return p;
  };
  const isIdle = (id: number) => IDLE.has(nodes.get(id)!.callFrame.functionName);
  /** A node's stack, from it up to the root's child it runs under (one event-loop callback), the root left out. */
  const stacks = new Map<number, number[]>();
  const stackOf = (id: number) => {
    let stack = stacks.get(id);
    if (!stack) {
      stack = [];
      for (let c: number | undefined = id; c !== undefined && c !== rootId; c = parent.get(c)) stack.push(c);
      stacks.set(id, stack);
    }
    return stack;
  };

  const at: number[] = [];
  const perSecond = new Map<number, { all: number; idle: number }>();
  let t = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    at.push(t);
    const s = Math.floor(t / 1e6);
    const e = perSecond.get(s) ?? { all: 0, idle: 0 };
    e.all += profile.timeDeltas[i] ?? 0;
    if (isIdle(id)) e.idle += profile.timeDeltas[i] ?? 0;
    perSecond.set(s, e);
  });
  const busy = (us: number) => {
    const e = perSecond.get(Math.floor(us / 1e6))!;
    return e.all > 0 && e.idle / e.all < maxIdle;
  };
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

  const summary: Summary = {
    totalUs: 0,
    busySeconds: [...perSecond.keys()].filter((s) => busy(s * 1e6)).length,
    seconds: perSecond.size,
    selfByFile: new Map(),
    selfByFunction: new Map(),
    inclusiveByFile: new Map(),
    tasks: [],
    inTasksByFunction: new Map(),
    inTasksUs: 0,
  };
  let task: { top: number; startUs: number; samples: Array<[number, number]> } | null = null;
  const endTask = () => {
    if (!task) return;
    const us = task.samples.reduce((a, [, d]) => a + d, 0);
    if (us >= taskMs * 1000) {
      summary.tasks.push({ startMs: task.startUs / 1000, ms: us / 1000, root: placeOf(task.top).name });
      summary.inTasksUs += us;
      for (const [id, d] of task.samples)
        for (const n of new Set(stackOf(id).map((c) => placeOf(c).name))) add(summary.inTasksByFunction, n, d);
    }
    task = null;
  };
  profile.samples.forEach((id, i) => {
    const d = profile.timeDeltas[i] ?? 0;
    if (!busy(at[i]!)) return endTask();
    summary.totalUs += d;
    const self = placeOf(id);
    add(summary.selfByFile, self.file, d);
    add(summary.selfByFunction, self.name, d);
    const stack = stackOf(id);
    for (const f of new Set(stack.map((c) => placeOf(c).file))) add(summary.inclusiveByFile, f, d);
    if (isIdle(id)) return endTask();
    const top = stack.at(-1)!;
    if (task?.top !== top) {
      endTask();
      task = { top, startUs: at[i]!, samples: [] };
    }
    task.samples.push([id, d]);
  });
  endTask();
  return summary;
}
