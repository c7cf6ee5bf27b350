import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { readProcStat, startCpuSplit } from "./cpu-split.ts";

const ownGroup = () => readProcStat("self")!.pgrp;

/**
 * Spins until this process has used `ms` more of CPU, user and system together: each check is a
 * getrusage call, whose system time on a loaded machine can be several times the user time burnt.
 */
function burn(ms: number) {
  const start = process.cpuUsage();
  const used = () => {
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
  };
  let x = 0;
  while (used() < ms) x += Math.sqrt(x + 1);
  return x;
}

/** A child that says "ready", then on each line of its stdin uses 300 ms of CPU and says "burnt". */
const BURNER = `
  const burn = () => {
    const start = process.cpuUsage();
    let x = 0;
    for (;;) {
      const { user, system } = process.cpuUsage(start);
      if ((user + system) / 1000 >= 300) return x;
      x += Math.sqrt(x + 1);
    }
  };
  require("node:readline").createInterface({ input: process.stdin }).on("line", () => {
    burn();
    console.log("burnt");
  });
  console.log("ready");
`;

describe.runIf(process.platform === "linux")("startCpuSplit", () => {
  it("charges a run's CPU to the server group and the load generator, per request", async () => {
    // The "server": a child in a process group of its own (detached), burning CPU when told to. Not
    // the test runner's group: its other workers come and go, and a process that leaves the group
    // takes its CPU out of the group's sum (a split of -5 ms once a sibling exited mid-run).
    const child = spawn(process.execPath, ["-e", BURNER], { detached: true, stdio: ["pipe", "pipe", "inherit"] });
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      expect((await lines.next()).value).toBe("ready");
      const end = startCpuSplit(child.pid!);
      child.stdin.write("burn\n");
      expect((await lines.next()).value).toBe("burnt");
      burn(300); // the load generator: this process
      const split = end(2)!;
      expect(split.loadMs).toBeGreaterThanOrEqual(150);
      expect(split.loadMs).toBeLessThan(1_000);
      // /proc charges CPU by clock ticks, which on a loaded machine can trail cpuUsage's figure:
      // ask for two thirds of the child's 300 ms (a broken reader gives 0 or NaN).
      expect(split.serverMs).toBeGreaterThanOrEqual(100);
      expect(split.serverMs).toBeLessThan(1_000);
      expect(split.idlePct).toBeGreaterThanOrEqual(0);
      expect(split.idlePct).toBeLessThanOrEqual(100);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill();
        await once(child, "exit");
      }
    }
  }, 30_000);

  it("charges nothing to a process group with no processes", () => {
    const end = startCpuSplit(2 ** 30);
    burn(50);
    expect(end(1)!.serverMs).toBe(0);
  });

  it("reads the CPU of children that have exited", () => {
    const before = readProcStat("self")!.exitedChildrenMs;
    const child = spawnSync(process.execPath, [
      "-e",
      "const s = process.cpuUsage(); let x = 0; while (process.cpuUsage(s).user < 300_000) x += Math.sqrt(x + 1);",
    ]);
    expect(child.status).toBe(0);
    expect(readProcStat("self")!.exitedChildrenMs - before).toBeGreaterThanOrEqual(200);
  }, 30_000);

  it("gives no split for a run that completed no request", () => {
    expect(startCpuSplit(ownGroup())(0)).toBeUndefined();
  });
});
