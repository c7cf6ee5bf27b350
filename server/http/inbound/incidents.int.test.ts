// Black-box: POST /v1/incidents (routing, repeats, concurrency) and access (rule 5).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInboundFixture, type InboundFixture } from "../../testing/inbound-fixture.ts";
import { AGENCY } from "../../../prisma/seed.ts";
import { setCallerPhoneNumber } from "../../incidents/caller-data.ts";
import { readIncident } from "../../incidents/read-incident.ts";

let f: InboundFixture;
beforeAll(async () => {
  f = await startInboundFixture();
});
afterAll(async () => {
  await f.close();
});

const NORTH_POINT = { latitude: 59.97, longitude: 10.76 };
const SOUTH_POINT = { latitude: 59.92, longitude: 10.76 };
const create = (body: object, token = f.tokens.north) => f.call("POST", "/v1/incidents", { token, body });

describe("POST /v1/incidents", () => {
  it("TokenAgency: 201 with openUrl, purpose Real, the token agency as Owner, an ETag; caller.location becomes the first Entered Known location", async () => {
    const id = randomUUID();
    const a = await create({
      routingMode: "TokenAgency",
      requestedIncidentId: id,
      caller: { phoneNumber: "+4791000001", location: NORTH_POINT },
      label: "Fall",
    });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      incidentId: id,
      openUrl: `${f.server.url}/portal/incidents/${id}`,
      purpose: "Real",
      involvedAgencies: [{ id: AGENCY.northPsap, displayName: "North PSAP", collaboration: "Owner" }],
    });
    expect(a.headers.get("etag")).toBe('"1"');
    const snapshot = (await readIncident({ db: f.runtime.db, incidentId: id }))!.snapshot as any;
    expect(snapshot.caller.tracks).toEqual([
      {
        source: "Entered",
        track: [
          {
            type: "Known",
            ...NORTH_POINT,
            capturedAtUtc: snapshot.createdAtUtc,
            receivedAtUtc: snapshot.createdAtUtc,
            source: "Entered",
          },
        ],
      },
    ]);
    expect(snapshot.label).toBe("Fall");
    expect(await f.runtime.db.incidentChange.findMany({ where: { incidentId: id } })).toMatchObject([
      { seq: 1, kind: "incident.created" },
    ]);
  });

  it("Jurisdiction: the agencies whose area holds caller.location, narrowed by preferredAgencyTypes", async () => {
    const all = await create({
      routingMode: "Jurisdiction",
      caller: { phoneNumber: "+4791000002", location: NORTH_POINT },
    });
    expect(all.status).toBe(201);
    expect(all.body.involvedAgencies.map((a: { id: string }) => a.id)).toEqual([
      AGENCY.northPsap,
      AGENCY.centralEms,
      AGENCY.fireRescue,
    ]);
    const ems = await create({
      routingMode: "Jurisdiction",
      caller: { phoneNumber: "+4791000003", location: NORTH_POINT },
      preferredAgencyTypes: ["Ems"],
    });
    expect(ems.body.involvedAgencies).toEqual([
      { id: AGENCY.centralEms, displayName: "Central EMS", collaboration: "Owner" },
    ]);
    const south = await create({
      routingMode: "Jurisdiction",
      caller: { phoneNumber: "+4791000004", location: SOUTH_POINT },
    });
    expect(south.body.involvedAgencies.map((a: { id: string }) => a.id)).toEqual([AGENCY.southPsap]);
    // North PSAP created it but South PSAP is responsible: North does not see it (rule 5).
    expect(
      (
        await f.call("PATCH", `/v1/incidents/${south.body.incidentId}/label`, {
          token: f.tokens.north,
          body: { label: "x" },
        })
      ).body.code,
    ).toBe("IncidentNotFound");
  });

  it("Jurisdiction needs caller.location (ValidationFailed) inside some agency's area", async () => {
    const missing = await create({ routingMode: "Jurisdiction", caller: { phoneNumber: "+4791000005" } });
    expect(missing).toMatchObject({
      status: 400,
      body: { code: "ValidationFailed", errors: [{ field: "caller.location" }] },
    });
    const outside = await create({
      routingMode: "Jurisdiction",
      caller: { phoneNumber: "+4791000005", location: { latitude: 10, longitude: 10 } },
    });
    expect(outside).toMatchObject({
      status: 400,
      body: { code: "ValidationFailed", errors: [{ field: "caller.location" }] },
    });
  });

  it("400 CallerPhoneNumberRequired without caller.phoneNumber, in both routing modes", async () => {
    for (const body of [
      { routingMode: "TokenAgency" },
      { routingMode: "TokenAgency", caller: {} },
      { routingMode: "Jurisdiction", caller: { location: NORTH_POINT } },
    ]) {
      expect(await create(body)).toMatchObject({ status: 400, body: { code: "CallerPhoneNumberRequired" } });
    }
  });

  it("links a call of the token agency; another agency's call is 404 CallNotFound", async () => {
    const c = await f.call("POST", "/v1/calls", {
      token: f.tokens.northApp,
      body: { callerPhoneNumber: "+4791000006", startedAtUtc: "2026-11-22T08:00:00Z" },
    });
    expect(
      (await create({ routingMode: "TokenAgency", callId: c.body.callId, caller: { phoneNumber: "+4791000006" } }))
        .status,
    ).toBe(201);
    expect(
      await create(
        { routingMode: "TokenAgency", callId: c.body.callId, caller: { phoneNumber: "+4791000006" } },
        f.tokens.ems,
      ),
    ).toMatchObject({ status: 404, body: { code: "CallNotFound" } });
  });

  it("repeats: 200 with the same body when matching as the incident now stands, else 409 IncidentAlreadyExists; never rewrites", async () => {
    const id = randomUUID();
    const body = {
      routingMode: "TokenAgency",
      requestedIncidentId: id,
      caller: { phoneNumber: "+4791000007" },
      label: "first",
    };
    const first = await create(body);
    expect(first.status).toBe(201);
    const repeat = await create({ ...body, label: "ignored", summary: "ignored" });
    expect(repeat).toMatchObject({ status: 200, body: first.body });
    const snapshot = (await readIncident({ db: f.runtime.db, incidentId: id }))!.snapshot as any;
    expect([snapshot.label, snapshot.summary]).toEqual(["first", null]);
    expect((await create({ ...body, caller: { phoneNumber: "+4799999999" } })).body.code).toBe("IncidentAlreadyExists");
    expect(
      (
        await create({
          ...body,
          routingMode: "Jurisdiction",
          caller: { phoneNumber: "+4791000007", location: NORTH_POINT },
        })
      ).body.code,
    ).toBe("IncidentAlreadyExists");
    // Another agency holding the id: 409, not its data.
    expect(await create(body, f.tokens.ems)).toMatchObject({ status: 409, body: { code: "IncidentAlreadyExists" } });
    expect((await f.runtime.db.incident.findUniqueOrThrow({ where: { id } })).version).toBe(1);
  });

  it("repeats compare against the incident as it now stands: after the caller's number changed, the original request is a 409, the current number a 200 (rule 4)", async () => {
    const id = randomUUID();
    const body = { routingMode: "TokenAgency", requestedIncidentId: id, caller: { phoneNumber: "+4791000017" } };
    const first = await create(body);
    expect(first.status).toBe(201);
    // The caller's number is edited after creation (the simulator, or a caller app resolving it).
    await setCallerPhoneNumber({
      db: f.runtime.db,
      clock: f.runtime.clock,
      incidentId: id,
      actor: "simulator",
      phoneNumber: "+4791000018",
    });
    expect(await create(body)).toMatchObject({ status: 409, body: { code: "IncidentAlreadyExists" } });
    expect(await create({ ...body, caller: { phoneNumber: "+4791000018" } })).toMatchObject({
      status: 200,
      body: first.body,
    });
    expect((await readIncident({ db: f.runtime.db, incidentId: id }))!.snapshot.caller.phoneNumber).toBe("+4791000018");
  });

  it("concurrent repeats of one requestedIncidentId: exactly one 201, the rest 200 with the same body, one change record", async () => {
    const id = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 24 }, () =>
        create({ routingMode: "TokenAgency", requestedIncidentId: id, caller: { phoneNumber: "+4791000008" } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(23);
    for (const a of answers) expect(a.body).toEqual(answers[0]!.body);
    expect(await f.runtime.db.incidentChange.count({ where: { incidentId: id } })).toBe(1);
  });

  it("without requestedIncidentId every request creates", async () => {
    const body = { routingMode: "TokenAgency", caller: { phoneNumber: "+4791000009" } };
    const [a, b] = [await create(body), await create(body)];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.incidentId).not.toBe(b.body.incidentId);
  });

  it("text members keep their limits and refuse blank text", async () => {
    const blank = await create({ routingMode: "TokenAgency", caller: { phoneNumber: "+4791000010" }, label: "  " });
    expect(blank).toMatchObject({ status: 400, body: { code: "ValidationFailed", errors: [{ field: "label" }] } });
    const long = await create({
      routingMode: "TokenAgency",
      caller: { phoneNumber: "+4791000010" },
      callSign: "x".repeat(51),
    });
    expect(long).toMatchObject({ status: 400, body: { code: "ValidationFailed", errors: [{ field: "callSign" }] } });
  });
});

describe("access to an existing incident (rule 5)", () => {
  it("another agency's incident, an unknown id and a non-UUID all answer 404 IncidentNotFound, never 403", async () => {
    const id = await f.createIncident();
    for (const [incidentId, token] of [
      [id, f.tokens.ems],
      [randomUUID(), f.tokens.north],
      ["not-a-uuid", f.tokens.north],
    ] as const) {
      for (const [method, path, body] of [
        ["PATCH", "label", { label: "x" }],
        ["POST", "caller/track", NORTH_POINT],
        ["POST", "close", undefined],
      ] as const) {
        const a = await f.call(method, `/v1/incidents/${incidentId}/${path}`, { token, body });
        expect({ status: a.status, code: a.body.code }).toEqual({ status: 404, code: "IncidentNotFound" });
      }
    }
  });
});
