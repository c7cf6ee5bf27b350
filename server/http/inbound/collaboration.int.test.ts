// Black-box: invite, accept, decline and their four 409s plus AgencyNotAllowed;
// change records in the change's transaction; rule 6's typical flow end to end.
import { Prisma } from "../../platform/db/client.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInboundFixture, type InboundFixture } from "../../testing/inbound-fixture.ts";
import { subscribeToChanges, type IncidentChange } from "../../incidents/change-record.ts";
import { AGENCY } from "../../../prisma/seed.ts";
import { mintInboundToken } from "../../testing/inbound-tokens.ts";

let f: InboundFixture;
beforeAll(async () => {
  f = await startInboundFixture();
});
afterAll(async () => {
  await f.close();
});

const on = (id: string, path: string) => `/v1/incidents/${id}/${path}`;
const invite = (id: string, agencyId: string, token = f.tokens.north) =>
  f.call("POST", on(id, "involved-agencies"), { token, body: { agencyId } });
const resolve = (id: string, decision: "accept" | "decline", token: string) =>
  f.call("POST", on(id, `collaboration/${decision}`), { token });

describe("collaboration", () => {
  it("invite → Pending (201); CollaborationInvitationPending; accept → Accepted; the accepted agency acts; CollaborationAlreadyActive; AlreadyResolved", async () => {
    const id = await f.createIncident();
    const invited = await invite(id, AGENCY.centralEms);
    expect(invited).toMatchObject({
      status: 201,
      body: {
        id: AGENCY.centralEms,
        displayName: "Central EMS",
        collaboration: "Pending",
        invitedBy: { id: AGENCY.northPsap, displayName: "North PSAP" },
      },
    });
    expect(await invite(id, AGENCY.centralEms)).toMatchObject({
      status: 409,
      body: { code: "CollaborationInvitationPending" },
    });
    // Pending: may resolve, may not act yet.
    expect((await f.call("PATCH", on(id, "label"), { token: f.tokens.ems, body: { label: "x" } })).body.code).toBe(
      "IncidentNotFound",
    );
    expect(await resolve(id, "accept", f.tokens.ems)).toMatchObject({
      status: 200,
      body: { id: AGENCY.centralEms, collaboration: "Accepted" },
    });
    expect(await f.call("PATCH", on(id, "label"), { token: f.tokens.ems, body: { label: "by EMS" } })).toMatchObject({
      status: 200,
      body: { label: "by EMS" },
    });
    expect(await invite(id, AGENCY.centralEms)).toMatchObject({
      status: 409,
      body: { code: "CollaborationAlreadyActive" },
    });
    expect(await invite(id, AGENCY.northPsap, f.tokens.ems)).toMatchObject({
      status: 409,
      body: { code: "CollaborationAlreadyActive" },
    });
    expect(await resolve(id, "decline", f.tokens.ems)).toMatchObject({
      status: 409,
      body: { code: "CollaborationInvitationAlreadyResolved" },
    });
    expect(await resolve(id, "accept", f.tokens.north)).toMatchObject({
      status: 409,
      body: { code: "NoPendingCollaborationInvitation" },
    });
    const snapshot = (await f.runtime.db.incident.findUniqueOrThrow({ where: { id } })).snapshot as any;
    expect(snapshot.involvedAgencies.map((a: any) => [a.displayName, a.collaboration])).toEqual([
      ["North PSAP", "Owner"],
      ["Central EMS", "Accepted"],
    ]);
    const kinds = (
      await f.runtime.db.incidentChange.findMany({ where: { incidentId: id }, orderBy: { seq: "asc" } })
    ).map((c) => c.kind);
    expect(kinds).toEqual([
      "incident.created",
      "involvedAgency.invited",
      "involvedAgency.collaboration.changed",
      "labelChanged",
    ]);
  });

  it("decline → Declined (no access), a second resolution is AlreadyResolved, the agency can be invited again", async () => {
    const id = await f.createIncident();
    await invite(id, AGENCY.fireRescue);
    expect(await resolve(id, "decline", f.tokens.fire)).toMatchObject({
      status: 200,
      body: { collaboration: "Declined" },
    });
    expect(await resolve(id, "accept", f.tokens.fire)).toMatchObject({
      status: 409,
      body: { code: "CollaborationInvitationAlreadyResolved" },
    });
    expect((await f.call("POST", on(id, "close"), { token: f.tokens.fire })).body.code).toBe("IncidentNotFound");
    expect((await invite(id, AGENCY.fireRescue)).status).toBe(201);
  });

  it("400 AgencyNotAllowed outside relatedAgencies (South PSAP, unknown); ValidationFailed for a non-UUID; an uninvited agency resolving sees 404", async () => {
    const id = await f.createIncident();
    for (const agencyId of [AGENCY.southPsap, "7e57e57e-0000-4000-8000-000000000000"]) {
      expect(await invite(id, agencyId)).toMatchObject({ status: 400, body: { code: "AgencyNotAllowed" } });
    }
    expect(await invite(id, "nope")).toMatchObject({
      status: 400,
      body: { code: "ValidationFailed", errors: [{ field: "agencyId" }] },
    });
    expect(await resolve(id, "accept", f.tokens.ems)).toMatchObject({
      status: 404,
      body: { code: "IncidentNotFound" },
    });
    expect(await f.runtime.db.incidentChange.count({ where: { incidentId: id } })).toBe(1);
  });
});

describe("change records", () => {
  it("are handed to subscribers inside the change's transaction: a subscriber's writes commit with the record, a throwing subscriber rolls the change back (500, nothing written)", async () => {
    const id = await f.createIncident();
    const seen: IncidentChange[] = [];
    const committed: unknown[] = [];
    const unsubscribe = subscribeToChanges({
      name: "test",
      // Runs in the aggregate's read statement: sees the incident as it was before the change.
      prefetch: (incidentId) => Prisma.sql`(SELECT "lastSeq" FROM "Incident" WHERE id = ${incidentId})`,
      async plan(_tx, changes, prefetched) {
        seen.push(...changes);
        if (changes.some((c) => c.kind === "summaryChanged")) throw new Error("planner failed");
        return { prefetched };
      },
      // A CTE of the record statement: it sees the incident row as the statement began, not its own change record.
      write: (plans) => ({
        ctes: Prisma.sql`test_seen AS (SELECT count(*) AS n FROM "IncidentChange" WHERE "incidentId" = ${id}::uuid)`,
        result: Prisma.sql`(SELECT jsonb_build_object('prefetched', ${(plans[0] as { prefetched: number }).prefetched}::int, 'records', n) FROM test_seen)`,
        committed: (r) => committed.push(r),
      }),
    });
    try {
      const ok = await f.call("PATCH", on(id, "label"), { token: f.tokens.north, body: { label: "kept" } });
      expect(ok.status).toBe(200);
      expect(seen.at(-1)).toMatchObject({
        kind: "labelChanged",
        incidentId: id,
        seq: 2,
        actor: "inbound:partner-cad/dispatcher.north",
        snapshot: { label: "kept" },
      });
      expect(committed).toEqual([{ prefetched: 1, records: 1 }]);
      const failed = await f.call("PATCH", on(id, "summary"), { token: f.tokens.north, body: { summary: "lost" } });
      expect(failed).toMatchObject({ status: 500, body: { code: "InternalServerError", traceId: expect.any(String) } });
      expect(JSON.stringify(failed.body)).not.toContain("planner failed");
      const row = await f.runtime.db.incident.findUniqueOrThrow({ where: { id } });
      expect([row.version, (row.snapshot as any).summary]).toEqual([2, null]);
      expect(await f.runtime.db.incidentChange.count({ where: { incidentId: id } })).toBe(2);
      expect(committed).toHaveLength(1);
    } finally {
      unsubscribe();
    }
  });
});

describe("rule 6: the typical flow", () => {
  it("token with agency_context + username → report call → create incident → maintain fields → reach caller → close", async () => {
    const token = await mintInboundToken(f.runtime, { username: "dispatcher.north", agencyId: AGENCY.northPsap });
    const reported = await f.call("POST", "/v1/calls", {
      token,
      body: { callerPhoneNumber: "+4793000001", startedAtUtc: "2026-11-22T10:00:00Z" },
    });
    expect(reported.status).toBe(201);
    const created = await f.call("POST", "/v1/incidents", {
      token,
      body: {
        routingMode: "TokenAgency",
        requestedIncidentId: crypto.randomUUID(),
        callId: reported.body.callId,
        caller: { phoneNumber: "+4793000001", location: { latitude: 59.97, longitude: 10.76 } },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.incidentId;
    let etag = created.headers.get("etag")!;
    for (const [path, body] of [
      ["label", { label: "Chest pain" }],
      ["caller/full-name", { fullName: "Kari Nordmann" }],
      ["summary", { summary: "Man, 60, chest pain" }],
      ["call-sign", { callSign: "AMB-7" }],
      ["patient/description", { description: "Pale, sweating" }],
    ] as const) {
      const a = await f.call("PATCH", on(id, path), { token, body, headers: { "if-match": etag } });
      expect(a.status).toBe(200);
      etag = a.headers.get("etag")!;
    }
    expect(
      (await f.call("POST", on(id, "caller/track"), { token, body: { latitude: 59.971, longitude: 10.761 } })).status,
    ).toBe(201);
    expect((await f.call("POST", on(id, "caller/locate"), { token })).status).toBe(202);
    expect((await f.call("POST", on(id, "caller/chat/activate"), { token })).status).toBe(200);
    expect((await f.call("POST", on(id, "caller/live-video/activate"), { token })).status).toBe(200);
    expect(
      (
        await f.call("POST", `/v1/calls/${reported.body.callId}/end`, {
          token,
          body: { endedAtUtc: "2026-11-22T10:12:00Z" },
        })
      ).status,
    ).toBe(200);
    expect((await f.call("POST", on(id, "close"), { token })).status).toBe(200);
    const kinds = (
      await f.runtime.db.incidentChange.findMany({ where: { incidentId: id }, orderBy: { seq: "asc" } })
    ).map((c) => c.kind);
    expect(kinds).toEqual([
      "incident.created",
      "labelChanged",
      "caller.fullNameChanged",
      "summaryChanged",
      "callSignChanged",
      "patient.descriptionChanged",
      "caller.newLocation",
      "caller.chat.activated",
      "caller.liveVideo.activated",
      "caller.liveVideo.ended",
      "incident.closed",
    ]);
  });
});
