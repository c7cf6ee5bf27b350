// The portal router: the session cookie gates it, and a dispatcher sees the
// incidents of their agency and its related agencies only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../root.ts";
import { createTRPCContext } from "../trpc.ts";
import { WorkbenchClock } from "../../platform/clock/clock.ts";
import { createPortalSession, endPortalSession, PORTAL_SESSION_COOKIE } from "../../identity/portal-sessions.ts";
import { setRuntime, type Runtime } from "../../runtime.ts";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { raiseSimulatedIncident } from "../../simulator/raise-incident.ts";
import { performSimulatorAction } from "../../simulator/perform-action.ts";
import { AGENCY, USER } from "../../../prisma/seed.ts";
import { DEMO_INCIDENT } from "../../incidents/seed-demo-incidents.ts";

let database: TestDatabase;
const clock = new WorkbenchClock();
const deps = () => ({ db: database.db, clock, portalUrl: "http://wb.test", liveVideoDurationS: 60 });
beforeAll(async () => {
  database = await createTestDatabase();
  setRuntime({
    db: database.db,
    clock,
    env: { PORTAL_URL: "http://wb.test", LIVE_VIDEO_DURATION_S: 60 },
  } as unknown as Runtime);
});
afterAll(async () => {
  setRuntime(undefined);
  await database.drop();
});

async function callerFor(userId: string | null) {
  const cookie = userId
    ? `${PORTAL_SESSION_COOKIE}=${await createPortalSession({ db: database.db, clock, userId, method: "password" })}`
    : "";
  return createCaller(await createTRPCContext({ headers: new Headers(cookie ? { cookie } : {}) }));
}

describe("portal router", () => {
  it("refuses without a session, and after sign-out", async () => {
    await expect((await callerFor(null)).portal.incidents({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const sessionId = await createPortalSession({
      db: database.db,
      clock,
      userId: USER.dispatcherNorth,
      method: "password",
    });
    const caller = createCaller(
      await createTRPCContext({ headers: new Headers({ cookie: `${PORTAL_SESSION_COOKIE}=${sessionId}` }) }),
    );
    expect(await caller.portal.agencies()).toHaveLength(3);
    await endPortalSession({ db: database.db, clock, sessionId });
    await expect(caller.portal.agencies()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("lists the own agency's open incidents by default; related agencies on request; others never", async () => {
    const south = await raiseSimulatedIncident({
      ...deps(),
      input: { origin: "WebApp", location: { latitude: 59.92, longitude: 10.75, accuracy: 20 } },
    });
    const ems = await caller("ems");
    expect((await ems.portal.agencies()).map((a) => [a.displayName, a.own])).toEqual([
      ["Central EMS", true],
      ["Fire and Rescue", false],
      ["North PSAP", false],
    ]);
    const own = await ems.portal.incidents({});
    expect(own.map((r) => r.id)).toContain(DEMO_INCIDENT.emsChestPain);
    expect(own.every((r) => r.agencies.some((a) => a.id === AGENCY.centralEms))).toBe(true);
    expect((await ems.portal.incidents({ agencyId: AGENCY.northPsap })).map((r) => r.id)).toContain(
      DEMO_INCIDENT.northFall,
    );
    await expect(ems.portal.incidents({ agencyId: AGENCY.southPsap })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(ems.portal.incident({ incidentId: south.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await ems.portal.incident({ incidentId: DEMO_INCIDENT.northFall })).changes[0]).toMatchObject({
      seq: 1,
      kind: "incident.created",
    });
  });

  it("filters by open/closed and purpose", async () => {
    const t = await raiseSimulatedIncident({
      ...deps(),
      input: { origin: "ConnectorAdmin", agencyId: AGENCY.northPsap },
    });
    const north = await caller("north");
    expect((await north.portal.incidents({ purpose: "Test" })).map((r) => r.id)).toEqual([t.id]);
    await performSimulatorAction({ ...deps(), incidentId: t.id, action: { action: "close" } });
    expect((await north.portal.incidents({ purpose: "Test" })).map((r) => r.id)).toEqual([]);
    expect((await north.portal.incidents({ purpose: "Test", state: "closed" }))[0]).toMatchObject({
      id: t.id,
      closedAtUtc: expect.any(String),
    });
  });

  it("the dispatcher answers in the chat; caller messages come from the simulator; both in order", async () => {
    const incident = await raiseSimulatedIncident({
      ...deps(),
      input: { origin: "MobileApp", agencyId: AGENCY.northPsap },
    });
    const north = await caller("north");
    await expect(north.portal.sendChatMessage({ incidentId: incident.id, text: "hello" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await performSimulatorAction({ ...deps(), incidentId: incident.id, action: { action: "activateChat" } });
    await performSimulatorAction({
      ...deps(),
      incidentId: incident.id,
      action: { action: "chatMessage", text: "Help" },
    });
    clock.setOffset(clock.offsetMs + 1000); // distinct sentAt: messages are ordered by time
    await north.portal.sendChatMessage({ incidentId: incident.id, text: "  On our way  " });
    expect((await north.portal.chatMessages({ incidentId: incident.id })).map((m) => [m.author, m.text])).toEqual([
      ["Caller", "Help"],
      ["Dispatcher", "On our way"],
    ]);
    // Fire and Rescue sees North PSAP's incident (related agency) but does not act on it: it reads, never answers.
    const fire = await caller("fire");
    expect(await fire.portal.chatMessages({ incidentId: incident.id })).toHaveLength(2);
    await expect(fire.portal.sendChatMessage({ incidentId: incident.id, text: "x" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("lists by activity with each row's last update, latest position and caller's last message; tells the clock", async () => {
    const older = await raiseSimulatedIncident({
      ...deps(),
      input: {
        origin: "Aml",
        agencyId: AGENCY.northPsap,
        location: { latitude: 59.96, longitude: 10.76, accuracy: 60 },
      },
    });
    clock.setOffset(clock.offsetMs + 1000);
    const newer = await raiseSimulatedIncident({ ...deps(), input: { origin: "WebApp", agencyId: AGENCY.northPsap } });
    const north = await caller("north");
    const order = async () => (await north.portal.incidents({})).filter((r) => [older.id, newer.id].includes(r.id));
    expect((await order()).map((r) => r.id)).toEqual([newer.id, older.id]);

    // The older incident moves: a precise app fix captured after the AML one is where the caller is now.
    clock.setOffset(clock.offsetMs + 1000);
    const movedAt = clock.nowMs();
    await performSimulatorAction({
      ...deps(),
      incidentId: older.id,
      action: { action: "location", source: "MobileApp", fix: { latitude: 59.9604, longitude: 10.7597, accuracy: 6 } },
    });
    const [first, second] = await order();
    expect(first).toMatchObject({
      id: older.id,
      latestLocation: { source: "MobileApp", accuracy: 6, latitude: 59.9604 },
      lastCallerMessageAtUtc: null,
    });
    expect(Date.parse(first!.lastUpdateAtUtc)).toBeGreaterThanOrEqual(movedAt);
    expect(second).toMatchObject({ id: newer.id, latestLocation: null });

    // A caller's message is activity too, and the row says when the caller last wrote.
    await performSimulatorAction({ ...deps(), incidentId: newer.id, action: { action: "activateChat" } });
    clock.setOffset(clock.offsetMs + 1000);
    const wroteAt = clock.nowMs();
    await performSimulatorAction({
      ...deps(),
      incidentId: newer.id,
      action: { action: "chatMessage", text: "Still here" },
    });
    const [top] = await order();
    expect(top!.id).toBe(newer.id);
    expect(Date.parse(top!.lastCallerMessageAtUtc!)).toBeGreaterThanOrEqual(wroteAt);

    // Dispatchers read the workbench clock through their own session (clock.show needs a dashboard role).
    const shown = await north.portal.clock();
    expect(shown.offsetMs).toBe(clock.offsetMs);
    expect(Math.abs(Date.parse(shown.now) - clock.nowMs())).toBeLessThan(1_000);
    await expect((await callerFor(null)).portal.clock()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

const caller = (who: "north" | "ems" | "fire") =>
  callerFor({ north: USER.dispatcherNorth, ems: USER.dispatcherEms, fire: USER.dispatcherFire }[who]);
