// Scenario 6 (spec, "Webhook receiver routes" rule 6): inviting Central EMS to a
// North PSAP incident that already has a caller track gives central-ems the
// create-and-track sequence, and north-psap (already involved) the
// involved-agency event; accepting reaches both as a collaboration change.
// Both replicas end equal to the platform snapshot.
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

const routes = async (key: string, id: string) =>
  (await s.deliveries(key, id)).map(
    (d) => `${d.method} ${d.path.replace(id, "{id}").replace(AGENCY.centralEms, "{ems}")}`,
  );

describe("collaboration", () => {
  it("inviting Central EMS delivers create + whole track to central-ems and involved-agency to north-psap; acceptance reaches both", async () => {
    const north = await s.requestToken();
    const ems = await s.requestToken({ agencyId: AGENCY.centralEms, username: "dispatcher.ems" });
    const id = await s.createIncident(north, { label: "Chest pain" });
    await s.step(north, "POST", `/v1/incidents/${id}/caller/track`, { latitude: 59.96, longitude: 10.75 });
    await s.step(north, "POST", `/v1/incidents/${id}/caller/track`, { latitude: 59.961, longitude: 10.751 });
    await s.settled(id);
    expect(await s.runtime.db.webhookDelivery.count({ where: { incidentId: id, integrationKey: "central-ems" } })).toBe(
      0,
    );

    await s.step(north, "POST", `/v1/incidents/${id}/involved-agencies`, { agencyId: AGENCY.centralEms }, [201]);
    await s.settled(id);
    expect(await routes("central-ems", id)).toEqual(["POST /v3/incidents", "PUT /v3/incidents/{id}/caller/track"]);
    const [created, wholeTrack] = (await s.deliveries("central-ems", id)).map((d) => d.body) as [
      { incident: { involvedAgencies: Array<{ id: string; collaboration: string }> } },
      { source: string; track: unknown[] },
    ];
    expect(created.incident.involvedAgencies.map((a) => [a.id, a.collaboration])).toEqual([
      [AGENCY.northPsap, "Owner"],
      [AGENCY.centralEms, "Pending"],
    ]);
    expect([wholeTrack.source, wholeTrack.track.length]).toEqual(["Entered", 2]);
    expect((await routes("north-psap", id)).slice(-1)).toEqual(["POST /v3/incidents/{id}/involved-agency"]);

    await s.step(ems, "POST", `/v1/incidents/${id}/collaboration/accept`);
    await s.step(ems, "PATCH", `/v1/incidents/${id}/summary`, { summary: "EMS on the way" });
    await s.settled(id);
    for (const key of ["north-psap", "central-ems"]) {
      expect((await routes(key, id)).slice(-2)).toEqual([
        "PATCH /v3/incidents/{id}/involved-agency/{ems}/collaboration",
        "PATCH /v3/incidents/{id}/summary",
      ]);
      const records = (await s.records(key, id)).filter((r) => r.outcome === "accepted");
      expect(records.flatMap((r) => r.anomalies)).toEqual([]);
      const { replica, platform } = await s.replicaAndPlatform(key, id);
      expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
    }
  });

  it("a declined agency gets the decline and nothing after it", async () => {
    const north = await s.requestToken();
    const ems = await s.requestToken({ agencyId: AGENCY.centralEms, username: "dispatcher.ems" });
    const id = await s.createIncident(north);
    await s.step(north, "POST", `/v1/incidents/${id}/involved-agencies`, { agencyId: AGENCY.centralEms }, [201]);
    await s.step(ems, "POST", `/v1/incidents/${id}/collaboration/decline`);
    await s.step(north, "PATCH", `/v1/incidents/${id}/label`, { label: "North alone" });
    await s.settled(id);
    expect(await routes("central-ems", id)).toEqual([
      "POST /v3/incidents",
      "PATCH /v3/incidents/{id}/involved-agency/{ems}/collaboration",
    ]);
    expect((await routes("north-psap", id)).slice(-1)).toEqual(["PATCH /v3/incidents/{id}/label"]);
    const { replica, platform } = await s.replicaAndPlatform("north-psap", id);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
  });

  it("an agency that declined and is invited again is newly involved: create and whole track again, never an append it cannot place (rule 6)", async () => {
    const north = await s.requestToken();
    const ems = await s.requestToken({ agencyId: AGENCY.centralEms, username: "dispatcher.ems" });
    const id = await s.createIncident(north);
    await s.step(north, "POST", `/v1/incidents/${id}/caller/track`, { latitude: 59.96, longitude: 10.75 });
    await s.step(north, "POST", `/v1/incidents/${id}/involved-agencies`, { agencyId: AGENCY.centralEms }, [201]);
    await s.step(ems, "POST", `/v1/incidents/${id}/collaboration/decline`);
    // While declined, central-ems receives nothing: these positions never reach it.
    await s.step(north, "POST", `/v1/incidents/${id}/caller/track`, { latitude: 59.961, longitude: 10.751 });
    await s.step(north, "POST", `/v1/incidents/${id}/caller/track`, { latitude: 59.962, longitude: 10.752 });
    await s.step(north, "POST", `/v1/incidents/${id}/involved-agencies`, { agencyId: AGENCY.centralEms }, [201]);
    await s.step(north, "POST", `/v1/incidents/${id}/caller/track`, { latitude: 59.963, longitude: 10.753 });
    await s.settled(id);
    expect(await routes("central-ems", id)).toEqual([
      "POST /v3/incidents",
      "PUT /v3/incidents/{id}/caller/track",
      "PATCH /v3/incidents/{id}/involved-agency/{ems}/collaboration",
      // invited again: the create-and-track sequence, then appends to the track it now holds in full
      "POST /v3/incidents",
      "PUT /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/caller/track",
    ]);
    const reintroduced = (await s.deliveries("central-ems", id))[4]!.body as { source: string; track: unknown[] };
    expect([reintroduced.source, reintroduced.track.length]).toEqual(["Entered", 3]);
    expect((await s.records("central-ems", id)).flatMap((r) => r.anomalies)).toEqual([]);
    const { replica, platform } = await s.replicaAndPlatform("central-ems", id);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
  });

  it("a Jurisdiction-routed incident reaches every involved receiver with create then the Entered track (rule 6); none of them sees an anomaly", async () => {
    const north = await s.requestToken();
    const res = await s.step(
      north,
      "POST",
      "/v1/incidents",
      {
        routingMode: "Jurisdiction",
        requestedIncidentId: crypto.randomUUID(),
        caller: { phoneNumber: "+4795599999", location: { latitude: 59.97, longitude: 10.76 } },
      },
      [201],
    );
    const id = res.body.incidentId as string;
    await s.settled(id);
    const involved = (res.body.involvedAgencies as Array<{ id: string }>).map((a) => a.id);
    // The northern half is covered by North PSAP, Central EMS and Fire and Rescue (seed).
    expect([...involved].sort()).toEqual([AGENCY.northPsap, AGENCY.centralEms, AGENCY.fireRescue].sort());
    for (const key of ["north-psap", "central-ems"]) {
      expect(await routes(key, id)).toEqual(["POST /v3/incidents", "PUT /v3/incidents/{id}/caller/track"]);
      expect((await s.records(key, id)).flatMap((r) => r.anomalies)).toEqual([]);
      const { replica, platform } = await s.replicaAndPlatform(key, id);
      expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
    }
    // fire-rescue's embedded receiver declares 2.0 (the seed), and the version comes from /about
    // alone (spec, Versioning 3): the same create-then-track sequence on the v2 routes.
    expect(await routes("fire-rescue", id)).toEqual(["POST /v2/incident", "PUT /v2/incident/{id}/position"]);
    expect((await s.records("fire-rescue", id)).flatMap((r) => r.anomalies)).toEqual([]);
  });
});
