import { describe, expect, it } from "vitest";
import { summarize, type CallFrame, type CpuProfile } from "./cpu-profile.ts";

const frame = (functionName: string, url = ""): CallFrame => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
// root → tick → (apply → clone), root → idle
const profile = (samples: Array<[id: number, us: number]>): CpuProfile => ({
  nodes: [
    { id: 1, callFrame: frame("(root)"), children: [2, 5] },
    { id: 2, callFrame: frame("tick", "file:///x/tick.js"), children: [3] },
    { id: 3, callFrame: frame("apply", "file:///x/apply.js"), children: [4] },
    { id: 4, callFrame: frame("clone", "file:///x/apply.js") },
    { id: 5, callFrame: frame("(idle)") },
  ],
  startTime: 0,
  endTime: samples.reduce((a, [, us]) => a + us, 0),
  samples: samples.map(([id]) => id),
  timeDeltas: samples.map(([, us]) => us),
});
const place = (f: CallFrame) => ({ file: f.url || f.functionName, name: f.functionName });

describe("summarize", () => {
  it("counts the busy seconds only, by self and inclusive time, and finds the long tasks", () => {
    const s = summarize(
      profile([
        // second 0: a 30 ms task (20 ms in clone), 1 ms idle, a 5 ms task
        [2, 10_000],
        [4, 20_000],
        [5, 1_000],
        [3, 5_000],
        [5, 963_000],
        // second 1: idle but for 1 ms
        [5, 999_000],
        [2, 1_000],
      ]),
      place,
      { maxIdle: 0.99, taskMs: 10 },
    );
    expect(s.seconds).toBe(2);
    expect(s.busySeconds).toBe(1);
    expect(s.totalUs).toBe(999_000);
    expect(s.selfByFunction.get("clone")).toBe(20_000);
    expect(s.selfByFile.get("file:///x/apply.js")).toBe(25_000);
    expect(s.inclusiveByFile.get("file:///x/tick.js")).toBe(35_000);
    expect(s.tasks).toEqual([{ startMs: 10, ms: 30, root: "tick" }]);
    expect(s.inTasksUs).toBe(30_000);
    expect(s.inTasksByFunction.get("apply")).toBe(20_000);
    expect(s.inTasksByFunction.get("tick")).toBe(30_000);
  });
});
