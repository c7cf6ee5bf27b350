// Scenario 2 (capability combinations produce the expected routes): north-psap's
// declaration is changed through the receiver's capability control (what the
// Receivers page, tRPC and `workbench receiver capabilities` call), which must make
// the engine rediscover the integration before the next event is planned; then
// real /v1 calls show which routes each declaration gets (spec, "Webhook receiver
// routes" rules 2–4).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setReceiverCapabilities } from "../reference-receiver/receiver-capabilities.ts";
import { V3_FLAG_PATHS } from "../webhook-contracts/v3/capability-flags.ts";
import { diffReplica } from "../reference-receiver/diff-replica.ts";
import { startScenario, type Scenario } from "./testing/scenario-fixture.ts";

let s: Scenario;
let token: string;
beforeAll(async () => {
  s = await startScenario();
  token = await s.requestToken();
});
afterAll(async () => {
  await s?.close();
});
// Back to the seeded declaration (every flag) after each combination.
afterEach(async () => {
  await capabilities(Object.fromEntries(V3_FLAG_PATHS.map((f) => [f, true])));
});

const capabilities = (set: Record<string, boolean>) =>
  setReceiverCapabilities({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", set });
const routesOf = async (incidentId: string) =>
  (await s.deliveries("north-psap", incidentId)).map((d) => `${d.method} ${d.path.replace(incidentId, "{id}")}`);
const bodiesOf = async (incidentId: string) => (await s.deliveries("north-psap", incidentId)).map((d) => d.body);

describe("capability combinations → routes", () => {
  it('labelChanged=false + changed=true: a label PATCH becomes `changed` {event: "PATCH label"}, effective for the very next event', async () => {
    const incidentId = await s.createIncident(token);
    await s.settled(incidentId);
    await capabilities({ "incident.labelChanged": false, "incident.changed": true });
    // No wait between the toggle and the change: the toggle itself must have been rediscovered.
    await s.step(token, "PATCH", `/v1/incidents/${incidentId}/label`, { label: "Smoke at pier 4" });
    await s.settled(incidentId);
    expect(await routesOf(incidentId)).toEqual(["POST /v3/incidents", "POST /v3/incidents/{id}/changed"]);
    const [, changed] = await bodiesOf(incidentId);
    const { platform } = await s.replicaAndPlatform("north-psap", incidentId);
    expect(changed).toEqual({ event: "PATCH label", openUrl: (platform as { openUrl: string }).openUrl });
    // `changed` carries no data: the replica knows something changed, not what (work in the portal).
    const { replica } = await s.replicaAndPlatform("north-psap", incidentId);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([
      { path: "label", replica: null, platform: "Smoke at pier 4" },
    ]);
    expect((await s.records("north-psap", incidentId)).flatMap((r) => r.anomalies)).toEqual([]);
  });

  it("labelChanged=false and changed=false: the label change is not delivered at all", async () => {
    await capabilities({ "incident.labelChanged": false, "incident.changed": false });
    const incidentId = await s.createIncident(token);
    await s.step(token, "PATCH", `/v1/incidents/${incidentId}/label`, { label: "not delivered" });
    await s.step(token, "PATCH", `/v1/incidents/${incidentId}/summary`, { summary: "delivered" });
    await s.settled(incidentId);
    expect(await routesOf(incidentId)).toEqual(["POST /v3/incidents", "PATCH /v3/incidents/{id}/summary"]);
  });

  it("caller.changed declared: the full-name change arrives as PUT caller (never the PATCH, whatever its flag); without it, as PATCH full-name", async () => {
    const composed = await s.createIncident(token);
    await s.step(token, "PATCH", `/v1/incidents/${composed}/caller/full-name`, { fullName: "Kari Nordmann" });
    await s.settled(composed);
    expect(await routesOf(composed)).toEqual(["POST /v3/incidents", "PUT /v3/incidents/{id}/caller"]);
    const { replica, platform } = await s.replicaAndPlatform("north-psap", composed);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);

    await capabilities({ "incident.caller.changed": false });
    const specific = await s.createIncident(token);
    await s.step(token, "PATCH", `/v1/incidents/${specific}/caller/full-name`, { fullName: "Ola Nordmann" });
    await s.step(token, "PATCH", `/v1/incidents/${specific}/caller/full-name`, { fullName: null });
    await s.settled(specific);
    expect(await routesOf(specific)).toEqual([
      "POST /v3/incidents",
      "PATCH /v3/incidents/{id}/caller/full-name",
      "PATCH /v3/incidents/{id}/caller/full-name",
    ]);
    expect((await bodiesOf(specific)).slice(1)).toEqual([{ fullName: "Ola Nordmann" }, { fullName: null }]);
    const after = await s.replicaAndPlatform("north-psap", specific);
    expect(diffReplica(after.replica!.snapshot, after.platform)).toEqual([]);
  });

  it("trackReplaced only (no newLocation): every dispatcher position arrives as a whole-track PUT, never an append", async () => {
    await capabilities({ "incident.caller.newLocation": false });
    const incidentId = await s.createIncident(token);
    for (const lon of [10.75, 10.76, 10.77])
      await s.step(token, "POST", `/v1/incidents/${incidentId}/caller/track`, { latitude: 59.96, longitude: lon });
    await s.settled(incidentId);
    expect(await routesOf(incidentId)).toEqual([
      "POST /v3/incidents",
      ...Array(3).fill("PUT /v3/incidents/{id}/caller/track"),
    ]);
    const tracks = (await bodiesOf(incidentId)).slice(1) as Array<{
      source: string;
      track: Array<{ longitude: number }>;
    }>;
    expect(tracks.map((t) => [t.source, t.track.map((l) => l.longitude)])).toEqual([
      ["Entered", [10.75]],
      ["Entered", [10.75, 10.76]],
      ["Entered", [10.75, 10.76, 10.77]],
    ]);
    const { replica, platform } = await s.replicaAndPlatform("north-psap", incidentId);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
    expect((await s.records("north-psap", incidentId)).flatMap((r) => r.anomalies)).toEqual([]);
  });

  it("neither track flag, but changed: positions arrive as `changed` naming the track operation", async () => {
    await capabilities({ "incident.caller.newLocation": false, "incident.caller.trackReplaced": false });
    const incidentId = await s.createIncident(token);
    await s.step(token, "POST", `/v1/incidents/${incidentId}/caller/track`, { latitude: 59.96, longitude: 10.75 });
    await s.settled(incidentId);
    expect(await routesOf(incidentId)).toEqual(["POST /v3/incidents", "POST /v3/incidents/{id}/changed"]);
    expect((await bodiesOf(incidentId))[1]).toMatchObject({ event: "POST caller/track" });
  });

  it("a declaration with neither created nor changed is rejected at /about: events wait, and flow once it is fixed", async () => {
    await capabilities({ "incident.created": false, "incident.changed": false });
    const caps = await s.runtime.db.webhookCapabilities.findUniqueOrThrow({ where: { integrationKey: "north-psap" } });
    expect(caps.status).toBe("rejected");
    const incidentId = await s.createIncident(token);
    await s.step(token, "PATCH", `/v1/incidents/${incidentId}/label`, { label: "waiting" });
    // Nothing is planned against a guessed declaration: the lane holds its changes, unplanned.
    expect(await routesOf(incidentId)).toEqual([]);
    expect(
      (
        await s.runtime.db.webhookLane.findUniqueOrThrow({
          where: { integrationKey_incidentId: { integrationKey: "north-psap", incidentId } },
        })
      ).heldFromSeq,
    ).toBe(1);
    expect(await s.runtime.db.receiverRecord.count({ where: { incidentId } })).toBe(0);
    await capabilities({ "incident.created": true, "incident.changed": true });
    await s.settled(incidentId);
    // Planned against the declaration made (every flag again): create, then the specific PATCH.
    expect(await routesOf(incidentId)).toEqual(["POST /v3/incidents", "PATCH /v3/incidents/{id}/label"]);
    expect((await s.records("north-psap", incidentId)).map((r) => r.outcome)).toEqual(["accepted", "accepted"]);
  });
});
