import { afterAll, beforeAll, expect, it } from "vitest";
import pino from "pino";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { subscribeToChanges, type IncidentChange } from "./change-record.ts";
import { createIncident } from "./create-incident.ts";
import { activateLiveVideo } from "./reach-caller.ts";
import { startLiveVideoWorker } from "./live-video-worker.ts";
import { AGENCY } from "../../prisma/seed.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

it("ends an active live video once its duration has passed on the workbench clock (reacting to a clock jump)", async () => {
  const clock = new WorkbenchClock();
  const db = database.db;
  const { incident } = await createIncident({
    db,
    clock,
    portalUrl: "http://wb.test",
    purpose: "Demo",
    routingMode: null,
    createdByAgencyId: null,
    agencyIds: [AGENCY.northPsap],
    phoneNumber: "+4794000001",
    actor: "simulator",
  });
  await activateLiveVideo({
    db,
    clock,
    incidentId: incident.id,
    actor: "simulator",
    portalUrl: "http://wb.test",
    durationS: 120,
  });
  const worker = await startLiveVideoWorker({ db, clock, logger: pino({ level: "silent" }) });
  const ended = new Promise<IncidentChange>((resolve) => {
    const off = subscribeToChanges({
      name: "test",
      plan: async (_tx, changes) => {
        const change = changes.find((c) => c.incidentId === incident.id && c.kind === "caller.liveVideo.ended");
        if (change) {
          off();
          resolve(change);
        }
        return null;
      },
    });
  });
  try {
    clock.setOffset(121_000);
    const change = await ended;
    expect(change.actor).toBe("system");
    expect(change.snapshot.caller.liveVideo).toMatchObject({ state: "Ended" });
  } finally {
    await worker.stop();
  }
});
