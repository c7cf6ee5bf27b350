import { spawnSync } from "node:child_process";
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

describe.runIf(process.platform === "linux")("startCpuSplit", () => {
  it("charges a run's CPU to the server group and the load generator, per request", () => {
    const end = startCpuSplit(ownGroup());
    burn(300);
    const split = end(2)!;
    // This process is both the "server" (its own process group) and the load generator here.
    expect(split.loadMs).toBeGreaterThanOrEqual(150);
    expect(split.loadMs).toBeLessThan(1_000);
    // /proc charges CPU by clock ticks, which on a loaded machine can trail cpuUsage's figure:
    // ask for two thirds of the burn (a broken reader gives 0 or NaN).
    expect(split.serverMs).toBeGreaterThanOrEqual(100);
    expect(split.idlePct).toBeGreaterThanOrEqual(0);
    expect(split.idlePct).toBeLessThanOrEqual(100);
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
