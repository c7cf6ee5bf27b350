// Nothing is planned against a guessed declaration (capability rule 2; workbench
// decision): while north-psap's /about is rejected or unreachable, its lanes hold
// their changes unplanned; once it declares {created, labelChanged} they are
// planned against that declaration — PATCH label, never the generic changed —
// and a held change older than its hour expires instead (Delivery rule 2).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setReceiverCapabilities } from "../reference-receiver/receiver-capabilities.ts";
import { setReceiverFault } from "../reference-receiver/integration-faults.ts";
import { V3_FLAG_PATHS } from "../webhook-contracts/v3/capability-flags.ts";
import { diffReplica } from "../reference-receiver/diff-replica.ts";
import { advanceClock } from "../workbench/clock-control.ts";
import { discoverIntegration } from "../webhooks/discovery/discover-integration.ts";
import { waitForEvents } from "../webhooks/testing/webhook-harness.ts";
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
afterEach(async () => {
  await setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", mode: "ok" });
  await declare(Object.fromEntries(V3_FLAG_PATHS.map((f) => [f, true])));
});

const declare = (set: Record<string, boolean>) =>
  setReceiverCapabilities({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", set });
/** Exactly {incident.created, incident.labelChanged}. */
const CREATED_AND_LABEL = Object.fromEntries(V3_FLAG_PATHS.map((f) => [f, f === "created" || f === "labelChanged"]));
const routesOf = async (incidentId: string) =>
  (await s.deliveries("north-psap", incidentId)).map((d) => `${d.method} ${d.path.replace(incidentId, "{id}")}`);
const laneOf = (incidentId: string) =>
  s.runtime.db.webhookLane.findUnique({
    where: { integrationKey_incidentId: { integrationKey: "north-psap", incidentId } },
  });

describe("events wait for a declaration and are planned against the one made", () => {
  it("rejected, then {created, labelChanged}: create and PATCH label, never POST changed", async () => {
    await declare({ "incident.created": false, "incident.changed": false });
    expect(
      (await s.runtime.db.webhookCapabilities.findUniqueOrThrow({ where: { integrationKey: "north-psap" } })).status,
    ).toBe("rejected");
    const id = await s.createIncident(token);
    await s.step(token, "PATCH", `/v1/incidents/${id}/label`, { label: "Smoke at pier 4" });
    expect(await routesOf(id)).toEqual([]);
    expect((await laneOf(id))?.heldFromSeq).toBe(1);

    const planned = waitForEvents("lane:held-planned", 1, (e) => e.incidentId === id);
    await declare(CREATED_AND_LABEL);
    expect((await planned)[0]![0]).toMatchObject({ integrationKey: "north-psap", planned: 2, expired: 0 });
    await s.settled(id);
    expect(await routesOf(id)).toEqual(["POST /v3/incidents", "PATCH /v3/incidents/{id}/label"]);
    expect((await laneOf(id))?.heldFromSeq).toBeNull();
    // Each event keeps its change's production time (its hour counts from there).
    const [create, label] = await s.deliveries("north-psap", id);
    const changes = await s.runtime.db.incidentChange.findMany({ where: { incidentId: id }, orderBy: { seq: "asc" } });
    expect([create!.producedAt, label!.producedAt]).toEqual([changes[0]!.producedAt, changes[1]!.producedAt]);
    const { replica, platform } = await s.replicaAndPlatform("north-psap", id);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);

    // Accepted now: the next change is planned at once, after the held ones.
    await s.step(token, "PATCH", `/v1/incidents/${id}/summary`, { summary: "not declared: not sent" });
    await s.step(token, "PATCH", `/v1/incidents/${id}/label`, { label: "Fire at pier 4" });
    await s.settled(id);
    expect(await routesOf(id)).toEqual([
      "POST /v3/incidents",
      "PATCH /v3/incidents/{id}/label",
      "PATCH /v3/incidents/{id}/label",
    ]);
  });

  it("never reached, then {created, labelChanged}: the same, the held changes planned against the declaration made", async () => {
    await setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", mode: "down" });
    await s.runtime.db.webhookCapabilities.delete({ where: { integrationKey: "north-psap" } });
    expect((await discoverIntegration(s.runtime, "north-psap")).status).toBe("unreachable");
    const id = await s.createIncident(token);
    await s.step(token, "PATCH", `/v1/incidents/${id}/label`, { label: "Smoke at pier 5" });
    expect(await routesOf(id)).toEqual([]);

    await setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", mode: "ok" });
    await declare(CREATED_AND_LABEL);
    await s.settled(id);
    expect(await routesOf(id)).toEqual(["POST /v3/incidents", "PATCH /v3/incidents/{id}/label"]);
  });

  it("held changes older than their hour when the declaration arrives expire; a later one introduces the incident as it stands", async () => {
    await declare({ "incident.created": false, "incident.changed": false });
    const id = await s.createIncident(token);
    await s.step(token, "PATCH", `/v1/incidents/${id}/label`, { label: "first" });
    await advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: 61 * 60_000 });
    token = await s.requestToken(); // the last one expired with the jump
    await s.step(token, "PATCH", `/v1/incidents/${id}/label`, { label: "second" });
    expect(await routesOf(id)).toEqual([]);

    const planned = waitForEvents("lane:held-planned", 1, (e) => e.incidentId === id);
    await declare(CREATED_AND_LABEL);
    expect((await planned)[0]![0]).toMatchObject({ planned: 1, expired: 2 });
    await s.settled(id);
    // The create and the first label expired unplanned; the receiver learns the incident from the
    // third change's create-and-track sequence, stamped with that change's time.
    const rows = await s.deliveries("north-psap", id);
    expect(rows.map((d) => `${d.method} ${d.path.replace(id, "{id}")}`)).toEqual(["POST /v3/incidents"]);
    expect((rows[0]!.body as { incident: { label: string } }).incident.label).toBe("second");
    const third = await s.runtime.db.incidentChange.findUniqueOrThrow({
      where: { incidentId_seq: { incidentId: id, seq: 3 } },
    });
    expect(rows[0]!.producedAt).toEqual(third.producedAt);
  });
});
