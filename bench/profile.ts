// `npx tsx bench/profile.ts <file.cpuprofile> [--max-idle=0.35] [--task-ms=10] [--top=30]`: where a
// thread's time went in a CPU profile, e.g. a bench's server under load:
//
//   BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench inbound-track
//   npx tsx bench/profile.ts /tmp/prof/CPU.<date>.<pid>.0.001.cpuprofile     # .0.: the main thread
//
// Only the seconds in which the thread was busy count (idle under --max-idle of the time). Prints
// self time by source file and by function, inclusive time by file, and the tasks of --task-ms or
// more (consecutive samples under one event-loop callback) with what they were made of.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { placeResolver, summarize, type CpuProfile } from "./lib/cpu-profile.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "max-idle": { type: "string" }, "task-ms": { type: "string" }, top: { type: "string" } },
});
if (positionals.length !== 1) {
  console.error("usage: npx tsx bench/profile.ts <file.cpuprofile> [--max-idle=0.35] [--task-ms=10] [--top=30]");
  process.exit(2);
}
const top = Number(values.top ?? 30);
const profile = JSON.parse(readFileSync(positionals[0]!, "utf8")) as CpuProfile;
const s = summarize(profile, placeResolver(), {
  maxIdle: Number(values["max-idle"] ?? 0.35),
  taskMs: Number(values["task-ms"] ?? 10),
});

const show = (title: string, m: Map<string, number>, of: number) => {
  console.log(`\n## ${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * us) / of).toFixed(1).padStart(5)} %  ${k}`);
};
console.log(`${s.busySeconds} busy seconds of ${s.seconds}; ${(s.totalUs / 1000).toFixed(0)} ms of samples counted`);
show("self time by file", s.selfByFile, s.totalUs);
show("self time by function", s.selfByFunction, s.totalUs);
show("inclusive time by file", s.inclusiveByFile, s.totalUs);
console.log(
  `\n## tasks of ${values["task-ms"] ?? 10} ms or more: ${s.tasks.length}, ${(s.inTasksUs / 1000).toFixed(0)} ms` +
    (s.tasks.length ? `, the longest ${Math.max(...s.tasks.map((t) => t.ms)).toFixed(0)} ms` : ""),
);
if (s.tasks.length) show("inclusive time by function within those tasks", s.inTasksByFunction, s.inTasksUs);
