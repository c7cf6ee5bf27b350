import { describe, expect, it } from "vitest";
import { createOutageLog } from "./outage-log.ts";

function logger() {
  const lines: Array<[string, string]> = [];
  const at = (level: string) => (_: unknown, msg?: string) => void lines.push([level, msg ?? ""]);
  const log = { warn: at("warn"), info: at("info"), error: at("error") } as unknown as Parameters<
    typeof createOutageLog
  >[0];
  return { lines, log };
}
const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });

describe("one log line per outage", () => {
  it("logs an outage's first failure and its end, and backs off 250 ms doubling to 5 s", () => {
    const { lines, log } = logger();
    const outage = createOutageLog(log, "worker");
    const delays = Array.from({ length: 8 }, () => outage.failed(refused, "claim failed"));
    expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
    expect(outage.inOutage).toBe(true);
    outage.succeeded();
    outage.succeeded();
    expect(lines.map(([level]) => level)).toEqual(["warn", "info"]);
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
