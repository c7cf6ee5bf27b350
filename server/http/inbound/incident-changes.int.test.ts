// Black-box: the text PATCHes (rule 1, If-Match, concurrency), caller actions,
// close and the state machine's 409s — each 409 changing nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInboundFixture, type InboundFixture } from "../../testing/inbound-fixture.ts";
import { endDueLiveVideos } from "../../incidents/reach-caller.ts";
import { createIncident as createDomainIncident } from "../../incidents/create-incident.ts";
import { AGENCY } from "../../../prisma/seed.ts";
import { readIncident } from "../../incidents/read-incident.ts";

let f: InboundFixture;
beforeAll(async () => {
  f = await startInboundFixture({ env: { LIVE_VIDEO_DURATION_S: "90" } });
});
afterAll(async () => {
  await f.close();
});

const on = (id: string, path: string) => `/v1/incidents/${id}/${path}`;
const snapshotOf = async (id: string) => (await readIncident({ db: f.runtime.db, incidentId: id }))!.snapshot as any;
const versionOf = async (id: string) => (await f.runtime.db.incident.findUniqueOrThrow({ where: { id } })).version;

const TEXT_ROUTES = [
  ["label", "label", (s: any) => s.label],
  ["call-sign", "callSign", (s: any) => s.callSign],
  ["caller/full-name", "fullName", (s: any) => s.caller.fullName],
  ["summary", "summary", (s: any) => s.summary],
  ["patient/description", "description", (s: any) => s.patient.description],
] as const;

describe("the five text PATCHes", () => {
  it.each(TEXT_ROUTES)(
    "PATCH %s sets, clears with null, refuses missing/empty/blank/too long",
    async (path, property, read) => {
      const id = await f.createIncident();
      const set = await f.call("PATCH", on(id, path), { token: f.tokens.north, body: { [property]: "Some text" } });
      expect(set).toMatchObject({ status: 200, body: { [property]: "Some text" } });
      expect(set.headers.get("etag")).toBe('"2"');
      expect(read(await snapshotOf(id))).toBe("Some text");
      for (const bad of [
        {},
        { [property]: "" },
        { [property]: " \t\n" },
        { [property]: 42 },
        { [property]: "x".repeat(5000) },
      ]) {
        const a = await f.call("PATCH", on(id, path), { token: f.tokens.north, body: bad });
        expect(a).toMatchObject({ status: 400, body: { code: "ValidationFailed", errors: [{ field: property }] } });
      }
      const cleared = await f.call("PATCH", on(id, path), { token: f.tokens.north, body: { [property]: null } });
      expect(cleared).toMatchObject({ status: 200, body: { [property]: null } });
      expect(read(await snapshotOf(id))).toBeNull();
      const kinds = (
        await f.runtime.db.incidentChange.findMany({ where: { incidentId: id }, orderBy: { seq: "asc" } })
      ).map((c) => c.seq);
      expect(kinds).toEqual([1, 2, 3]);
    },
  );

  it("setting the current value again records no change and keeps the ETag", async () => {
    const id = await f.createIncident({ label: "same" });
    const a = await f.call("PATCH", on(id, "label"), { token: f.tokens.north, body: { label: "same" } });
    expect(a.headers.get("etag")).toBe('"1"');
    expect(await f.runtime.db.incidentChange.count({ where: { incidentId: id } })).toBe(1);
  });

  it("If-Match: the current ETag applies, a stale one is 409 UpdateConflict and changes nothing", async () => {
    const id = await f.createIncident();
    const ok = await f.call("PATCH", on(id, "summary"), {
      token: f.tokens.north,
      body: { summary: "one" },
      headers: { "if-match": '"1"' },
    });
    expect(ok.status).toBe(200);
    const stale = await f.call("PATCH", on(id, "summary"), {
      token: f.tokens.north,
      body: { summary: "two" },
      headers: { "if-match": '"1"' },
    });
    expect(stale).toMatchObject({ status: 409, body: { code: "UpdateConflict" } });
    expect((await snapshotOf(id)).summary).toBe("one");
    expect(await versionOf(id)).toBe(2);
  });

  it("concurrent writers with the same If-Match: exactly one wins, the rest get UpdateConflict", async () => {
    const id = await f.createIncident();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        f.call("PATCH", on(id, "label"), {
          token: f.tokens.north,
          body: { label: `writer ${i}` },
          headers: { "if-match": '"1"' },
        }),
      ),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.code === "UpdateConflict")).toHaveLength(11);
    expect((await snapshotOf(id)).label).toBe(winners[0]!.body.label);
  });

  it("concurrent writers without If-Match never lose an update: every track append and every version is there", async () => {
    const id = await f.createIncident();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        f.call("POST", on(id, "caller/track"), {
          token: f.tokens.north,
          body: { latitude: 59.96 + i / 1000, longitude: 10.76 },
        }),
      ),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect((await snapshotOf(id)).caller.tracks[0].track).toHaveLength(20);
    expect(await versionOf(id)).toBe(21);
    const seqs = (
      await f.runtime.db.incidentChange.findMany({ where: { incidentId: id }, orderBy: { seq: "asc" } })
    ).map((c) => c.seq);
    expect(seqs).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
  });
});

describe("caller actions", () => {
  it("caller/track appends a Known Entered location (201 { location })", async () => {
    const id = await f.createIncident({
      caller: { phoneNumber: "+4792000001", location: { latitude: 59.97, longitude: 10.75 } },
    });
    const a = await f.call("POST", on(id, "caller/track"), {
      token: f.tokens.north,
      body: { latitude: 59.98, longitude: 10.77 },
    });
    expect(a).toMatchObject({
      status: 201,
      body: { location: { type: "Known", latitude: 59.98, longitude: 10.77, source: "Entered" } },
    });
    expect(Object.keys(a.body.location)).not.toContain("accuracy");
    expect((await snapshotOf(id)).caller.tracks[0].track.map((l: any) => l.latitude)).toEqual([59.97, 59.98]);
    const bad = await f.call("POST", on(id, "caller/track"), {
      token: f.tokens.north,
      body: { latitude: 91, longitude: "x" },
    });
    expect(bad).toMatchObject({ status: 400, body: { code: "ValidationFailed" } });
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["latitude", "longitude"]);
  });

  it("caller/locate: 202 { smsId, sentTo }, the SMS recorded; no phone number → 400 CallerPhoneNumberRequired", async () => {
    const id = await f.createIncident({ caller: { phoneNumber: "+4792000002" } });
    const a = await f.call("POST", on(id, "caller/locate"), { token: f.tokens.north });
    expect(a).toMatchObject({ status: 202, body: { smsId: expect.any(String), sentTo: "+4792000002" } });
    expect(await f.runtime.db.simulatedSms.findUnique({ where: { id: a.body.smsId } })).toMatchObject({
      incidentId: id,
      sentTo: "+4792000002",
      link: `${f.server.url}/locate/${a.body.smsId}`,
    });
    const { incident } = await createDomainIncident({
      db: f.runtime.db,
      clock: f.runtime.clock,
      portalUrl: f.server.url,
      purpose: "Real",
      routingMode: null,
      createdByAgencyId: null,
      agencyIds: [AGENCY.northPsap],
      phoneNumber: null,
      actor: "simulator",
    });
    expect(await f.call("POST", on(incident.id, "caller/locate"), { token: f.tokens.north })).toMatchObject({
      status: 400,
      body: { code: "CallerPhoneNumberRequired" },
    });
  });

  it("chat: 200 { portalUrl }, then 409 ChatAlreadyActive", async () => {
    const id = await f.createIncident();
    const a = await f.call("POST", on(id, "caller/chat/activate"), { token: f.tokens.north });
    expect(a).toMatchObject({ status: 200, body: { portalUrl: `${f.server.url}/portal/incidents/${id}/chat` } });
    expect((await snapshotOf(id)).caller.chat).toMatchObject({ state: "Active", portalUrl: a.body.portalUrl });
    expect(await f.call("POST", on(id, "caller/chat/activate"), { token: f.tokens.north })).toMatchObject({
      status: 409,
      body: { code: "ChatAlreadyActive" },
    });
    expect(await versionOf(id)).toBe(2);
  });

  it("live video: 200 { portalUrl }, 409 LiveVideoAlreadyActive while active, ends on its own after LIVE_VIDEO_DURATION_S of workbench time, can start again", async () => {
    const id = await f.createIncident();
    const a = await f.call("POST", on(id, "caller/live-video/activate"), { token: f.tokens.north });
    expect(a).toMatchObject({ status: 200, body: { portalUrl: `${f.server.url}/portal/incidents/${id}/live-video` } });
    expect(await f.call("POST", on(id, "caller/live-video/activate"), { token: f.tokens.north })).toMatchObject({
      status: 409,
      body: { code: "LiveVideoAlreadyActive" },
    });
    const clock = f.runtime.clock;
    expect(await endDueLiveVideos({ db: f.runtime.db, clock })).toBe(0);
    await f.server.withClockAhead(91_000, async () => {
      expect(await endDueLiveVideos({ db: f.runtime.db, clock })).toBeGreaterThanOrEqual(1);
      expect((await snapshotOf(id)).caller.liveVideo).toMatchObject({ state: "Ended", endedAtUtc: expect.any(String) });
      const kinds = (
        await f.runtime.db.incidentChange.findMany({ where: { incidentId: id }, orderBy: { seq: "asc" } })
      ).map((c) => [c.kind, c.actor]);
      expect(kinds.slice(1)).toEqual([
        ["caller.liveVideo.activated", "inbound:partner-cad/dispatcher.north"],
        ["caller.liveVideo.ended", "system"],
      ]);
      expect((await f.call("POST", on(id, "caller/live-video/activate"), { token: f.tokens.north })).status).toBe(200);
    });
  });
});

describe("close", () => {
  it("200 { incidentId, closedAtUtc }; afterwards every change is 409 IncidentClosed and changes nothing", async () => {
    const id = await f.createIncident();
    await f.call("POST", on(id, "caller/live-video/activate"), { token: f.tokens.north });
    // Pending invitations, so accept and decline reach the closed check rather than "no invitation".
    for (const agencyId of [AGENCY.centralEms, AGENCY.fireRescue])
      expect(
        (await f.call("POST", on(id, "involved-agencies"), { token: f.tokens.north, body: { agencyId } })).status,
      ).toBe(201);
    const closed = await f.call("POST", on(id, "close"), { token: f.tokens.north });
    expect(closed).toMatchObject({ status: 200, body: { incidentId: id, closedAtUtc: expect.any(String) } });
    expect((await snapshotOf(id)).caller.liveVideo.state).toBe("Ended");
    const version = await versionOf(id);
    const attempts: Array<[string, string, object | undefined]> = [
      ...TEXT_ROUTES.map(([p, prop]) => ["PATCH", p, { [prop]: "late" }] as [string, string, object]),
      ["POST", "caller/track", { latitude: 59.97, longitude: 10.76 }],
      ["POST", "caller/locate", undefined],
      ["POST", "caller/chat/activate", undefined],
      ["POST", "caller/live-video/activate", undefined],
      ["POST", "close", undefined],
      ["POST", "involved-agencies", { agencyId: AGENCY.centralEms }],
    ];
    for (const [method, path, body] of attempts) {
      const a = await f.call(method, on(id, path), { token: f.tokens.north, body });
      expect({ path, status: a.status, code: a.body.code }).toEqual({ path, status: 409, code: "IncidentClosed" });
    }
    // The invited agencies' own operations on the closed incident.
    for (const [decision, token] of [
      ["accept", f.tokens.ems],
      ["decline", f.tokens.fire],
    ] as const) {
      const a = await f.call("POST", on(id, `collaboration/${decision}`), { token });
      expect({ decision, status: a.status, code: a.body.code }).toEqual({
        decision,
        status: 409,
        code: "IncidentClosed",
      });
    }
    expect(await versionOf(id)).toBe(version);
    expect(await f.runtime.db.simulatedSms.count({ where: { incidentId: id } })).toBe(0);
  });
});
