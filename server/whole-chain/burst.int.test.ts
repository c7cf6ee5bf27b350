// Many incidents at once through the whole chain (spec, Delivery rule 3: one
// incident's deliveries strictly ordered, different incidents independent): the
// engine runs lanes in parallel and the receiver answers before it processes, yet
// every replica ends equal to its platform snapshot, with no anomaly and no
// event recorded twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffReplica } from "../reference-receiver/diff-replica.ts";
import { AGENCY, startScenario, type Scenario } from "./testing/scenario-fixture.ts";

let s: Scenario;
beforeAll(async () => {
  s = await startScenario();
});
afterAll(async () => {
  await s?.close();
});

describe("a burst", () => {
  it("12 incidents changed concurrently (north-psap and central-ems): every lane in order, every replica = platform", async () => {
    const north = await s.requestToken();
    const ems = await s.requestToken({ agencyId: AGENCY.centralEms, username: "dispatcher.ems" });
    const ids = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const token = i % 2 === 0 ? north : ems;
        const id = await s.createIncident(token, { label: `burst ${i}` });
        const base = `/v1/incidents/${id}`;
        for (let k = 0; k < 4; k++) {
          await s.step(token, "POST", `${base}/caller/track`, {
            latitude: 59.96 + k / 1000,
            longitude: 10.75 + i / 1000,
          });
          await s.step(token, "PATCH", `${base}/summary`, { summary: `step ${k}` });
        }
        if (i % 4 === 0)
          await s.step(token, "POST", `${base}/involved-agencies`, { agencyId: AGENCY.centralEms }, [201]);
        await s.step(token, "PATCH", `${base}/call-sign`, { callSign: `U-${i}` });
        return { id, key: i % 2 === 0 ? "north-psap" : "central-ems" };
      }),
    );
    await s.settled(ids.map(({ id }) => id));
    for (const { id, key } of ids) {
      const keys =
        key === "north-psap" && ids.findIndex((x) => x.id === id) % 4 === 0 ? ["north-psap", "central-ems"] : [key];
      for (const k of keys) {
        const deliveries = await s.deliveries(k, id);
        const accepted = (await s.records(k, id)).filter((r) => r.outcome === "accepted");
        expect(accepted.map((r) => r.serviceRequestId)).toEqual(deliveries.map((d) => d.requestId));
        expect(accepted.flatMap((r) => [...r.anomalies, ...(r.duplicates ? ["duplicate"] : [])])).toEqual([]);
        const { replica, platform } = await s.replicaAndPlatform(k, id);
        expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
      }
    }
  });

  it("20 concurrent appends to ONE incident (one change of an incident per batch, optimistic on its xmin: decision 0010): one delivery per change, in seq order, replica = platform", async () => {
    const north = await s.requestToken();
    const id = await s.createIncident(north, { label: "one incident, many writers" });
    await Promise.all(
      Array.from({ length: 20 }, (_, k) =>
        s.step(
          north,
          "POST",
          `/v1/incidents/${id}/caller/track`,
          { latitude: 59.96 + k / 1000, longitude: 10.75 },
          [201],
        ),
      ),
    );
    await s.settled([id]);
    const deliveries = await s.deliveries("north-psap", id);
    // created, the whole Entered track with the first append, then an append per later change: never twice, never skipped.
    const seqs = deliveries.map((d) => d.changeSeq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs.filter((q) => q > 1)).size).toBe(20);
    expect(Math.max(...seqs)).toBe(21);
    const accepted = (await s.records("north-psap", id)).filter((r) => r.outcome === "accepted");
    expect(accepted.map((r) => r.serviceRequestId)).toEqual(deliveries.map((d) => d.requestId));
    expect(accepted.flatMap((r) => [...r.anomalies, ...(r.duplicates ? ["duplicate"] : [])])).toEqual([]);
    const { replica, platform } = await s.replicaAndPlatform("north-psap", id);
    expect(platform.caller.tracks[0]!.track).toHaveLength(20);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
  });
});
