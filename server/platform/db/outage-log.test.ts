import { describe, expect, it } from "vitest";
import type { Logger } from "../logger.ts";
import { createOutageLog, warnUnlessOutage } from "./outage-log.ts";

function logger() {
  const lines: Array<[string, string]> = [];
  const at = (level: string) => (_: unknown, msg?: string) => void lines.push([level, msg ?? ""]);
  const log = { debug: at("debug"), warn: at("warn"), error: at("error") } as unknown as Pick<
    Logger,
    "debug" | "warn" | "error"
  >;
  return { lines, log };
}
const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });

describe("a worker's outage lines (the watch gives the one warning)", () => {
  it("notes an outage's first failure and its end at debug level, and backs off 250 ms doubling to 5 s", () => {
    const { lines, log } = logger();
    const outage = createOutageLog(log, "worker");
    const delays = Array.from({ length: 8 }, () => outage.failed(refused, "claim failed"));
    expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
    expect(outage.inOutage).toBe(true);
    outage.succeeded();
    outage.succeeded();
    expect(lines.map(([level]) => level)).toEqual(["debug", "debug"]);
    expect(outage.failed(refused, "claim failed")).toBe(250);
    expect(lines).toHaveLength(3);
  });

  it("logs every failure that is no outage, as an error", () => {
    const { lines, log } = logger();
    const outage = createOutageLog(log, "worker");
    outage.failed(new TypeError("bug"), "claim failed");
    outage.failed(new TypeError("bug"), "claim failed");
    expect(lines).toEqual([
      ["error", "claim failed"],
      ["error", "claim failed"],
    ]);
    expect(outage.inOutage).toBe(false);
  });
});

describe("a periodic step's failure (warnUnlessOutage)", () => {
  it("is a warning each time, unless the database is unavailable: then debug, the watch's line says it", () => {
    const { lines, log } = logger();
    warnUnlessOutage(log, new Error("GET /about answered HTTP 500"), "planning held changes failed");
    warnUnlessOutage(log, refused, "planning held changes failed");
    warnUnlessOutage(log, new Error("Connection terminated unexpectedly"), "purging expired credentials failed");
    expect(lines).toEqual([
      ["warn", "planning held changes failed"],
      ["debug", "planning held changes failed"],
      ["debug", "purging expired credentials failed"],
    ]);
  });
});
