#!/usr/bin/env node
// `npm test`: the checks half (typecheck, lint, vitest) and the browser half (Playwright, then the
// kit's examples) side by side, each line prefixed with its half's name. A CI log is read from its
// tail, which is the summary of whichever half finished last; so each failed half's own account of
// its failures is printed again at the very end, and the run ends with one line per half.
//
// The checks half runs at a lower CPU priority (nice 10). The browser half is one test at a time
// against one workbench, each step waited for with a deadline, and it is the longer half; the
// checks half is four vitest workers that keep both cores busy whenever they can. At equal
// priority a CI runner's two cores were shared out evenly and a browser step that takes 4 s alone
// took over 30. Lowered, the checks take what the browser leaves, which is most of a core.
import { createRequire } from "node:module";
import { concurrently } from "concurrently";
import { failureAccount } from "./failure-account.mjs";

// One settled Prisma client for both halves: the build would otherwise generate it while the type
// check reads it (scripts/generate-if-stale.cjs).
createRequire(import.meta.url)("./generate-if-stale.cjs").generateIfStale();

const LOWER_PRIORITY = process.platform === "win32" ? "" : "nice -n 10 ";
const HALVES = [
  { name: "checks", command: `${LOWER_PRIORITY}npm run test:checks`, prefixColor: "blue" },
  { name: "browser", command: "npm:test:browser", prefixColor: "magenta" },
];
/** At most this many lines of a failed half are repeated (the log above has them all). */
const MAX_REPEATED_LINES = 200;
const { commands, result } = concurrently(HALVES, { prefix: "name" });
const output = new Map(commands.map((c) => [c.name, []]));
for (const command of commands) {
  const lines = output.get(command.name);
  let partial = "";
  const collect = (chunk) => {
    const parts = (partial + chunk.toString("utf8")).split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
  };
  command.stdout.subscribe(collect);
  command.stderr.subscribe(collect);
  command.close.subscribe(() => {
    if (partial) lines.push(partial);
    partial = "";
  });
}

const closed = await result.then(
  (events) => events,
  (events) => events,
);
const failed = closed.filter((e) => e.exitCode !== 0);
for (const event of failed) {
  const account = failureAccount(output.get(event.command.name));
  const shown = account.slice(0, MAX_REPEATED_LINES);
  process.stdout.write(
    `\n──── ${event.command.name} failed (exit ${event.exitCode}); its account, repeated from above ────\n`,
  );
  for (const line of shown) process.stdout.write(`[${event.command.name}] ${line}\n`);
  if (account.length > shown.length)
    process.stdout.write(`[${event.command.name}] … ${account.length - shown.length} more lines above\n`);
}
process.stdout.write("\n");
for (const event of closed)
  process.stdout.write(
    `${event.command.name}: ${event.exitCode === 0 ? "passed" : `FAILED (exit ${event.exitCode})`} in ${Math.round(
      (event.timings.endDate - event.timings.startDate) / 1000,
    )} s\n`,
  );
process.exit(failed.length ? 1 : 0);
