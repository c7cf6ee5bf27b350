import { beforeEach, describe, expect, it, vi } from "vitest";
import { WorkbenchClock } from "../../platform/clock/clock.ts";
import { createLogger } from "../../platform/logger.ts";
import type { DbClient } from "../../platform/db/client.ts";
import { createOutageRecovery } from "./outage-recovery.ts";

const own = vi.hoisted(() => ({
  rows: [] as Array<{ id: bigint; integrationKey: string; incidentId: string }>,
  asked: [] as Date[],
}));
vi.mock("./claim-deliveries.ts", async (original) => ({
  ...(await original<typeof import("./claim-deliveries.ts")>()),
  findOwnClaims: (_db: unknown, { claimedBefore }: { claimedBefore: Date }) => {
    own.asked.push(claimedBefore);
    return Promise.resolve(own.rows);
  },
}));

const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
const settle = () => new Promise((r) => setTimeout(r, 0));

function setUp(held: string[] = []) {
  const released: bigint[][] = [];
  let wakes = 0;
  const recovery = createOutageRecovery({
    db: {} as DbClient,
    clock: new WorkbenchClock(),
    workerId: "w1",
    log: createLogger({ level: "silent" }),
    holdsLane: (key) => held.includes(key),
    release: (ids) => {
      released.push(ids);
      return Promise.resolve();
    },
    wake: () => wakes++,
    stopped: () => false,
  });
  return { recovery, released, wakes: () => wakes };
}

beforeEach(() => {
  own.rows = [];
  own.asked = [];
});

describe("the delivery worker after an outage", () => {
  it("gives back, once the database answers, what the outage stranded and its own claims on lanes it holds nothing of", async () => {
    own.rows = [
      { id: 7n, integrationKey: "north-psap", incidentId: "a" }, // a claim whose answer was lost
      { id: 8n, integrationKey: "north-psap", incidentId: "b" }, // a lane this worker is sending on
      { id: 5n, integrationKey: "north-psap", incidentId: "c" }, // stranded: its record failed
    ];
    const { recovery, released, wakes } = setUp(["north-psap\nb", "north-psap\nc"]);
    expect(recovery.failed(refused, "claim failed")).toBe(250);
    recovery.strand([5n]);
    recovery.answered();
    await settle();
    expect(released).toEqual([[5n, 7n]]);
    expect(own.asked).toHaveLength(1);
    expect(wakes()).toBe(1);
    // Over: the next answer looks for nothing.
    recovery.answered();
    await settle();
    expect(own.asked).toHaveLength(1);
  });

  it("looks for nothing when there was no outage (a failure that is no outage included)", async () => {
    const { recovery, released } = setUp();
    recovery.failed(new TypeError("bug"), "claim failed");
    recovery.answered();
    await settle();
    expect(own.asked).toEqual([]);
    expect(released).toEqual([]);
  });
});
