// Tracks outside the snapshot (track-storage.ts) on a real database: what is
// stored, what readers see now and at each change, and the migration that moved
// existing positions out.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planDeliveriesOnChange } from "../webhooks/planning/plan-deliveries.ts";
import { subscribeToChanges } from "./change-record.ts";
import { AGENCY } from "../../prisma/seed.ts";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import { MIGRATIONS_DIR } from "../platform/db/apply-migrations.ts";
import { acceptDeclaration, MINIMAL_FLAGS } from "../webhooks/testing/accept-declaration.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { addEnteredLocation, addMeasuredLocation, replaceTrack } from "./caller-track.ts";
import { inviteAgency } from "./collaboration.ts";
import { createIncident } from "./create-incident.ts";
import { readIncident } from "./read-incident.ts";
import type { TIncidentSnapshotV3, TLocation } from "./snapshot.schema.ts";

let database: TestDatabase;
const clock = new WorkbenchClock();
let unsubscribe: () => void;
beforeAll(async () => {
  database = await createTestDatabase();
  unsubscribe = subscribeToChanges(planDeliveriesOnChange);
  await acceptDeclaration(
    database.db,
    ["north-psap", "central-ems"],
    MINIMAL_FLAGS,
    new Date("2026-11-22T06:00:00.000Z"),
  );
});
afterAll(async () => {
  unsubscribe();
  await database.drop();
});

const storedRow = async (id: string) =>
  (
    await database.db.$queryRaw<Array<{ snapshot: TIncidentSnapshotV3; size: number }>>`
  SELECT snapshot, length(snapshot::text) AS size FROM "Incident" WHERE id = ${id}::uuid`
  )[0]!;
const latitudes = (s: TIncidentSnapshotV3) => s.caller.tracks.map((t) => [t.source, t.track.map((l) => l.latitude)]);
const atSeq = async (id: string) =>
  await database.db.$queryRaw<Array<{ seq: number; kind: string; snapshot: TIncidentSnapshotV3 }>>`
  SELECT seq, kind, incident_snapshot_at(snapshot, "incidentId", seq) AS snapshot FROM "IncidentChange" WHERE "incidentId" = ${id}::uuid ORDER BY seq`;

async function newIncident() {
  const { incident } = await createIncident({
    db: database.db,
    clock,
    portalUrl: "http://wb.test",
    purpose: "Test",
    routingMode: "TokenAgency",
    createdByAgencyId: AGENCY.northPsap,
    agencyIds: [AGENCY.northPsap],
    phoneNumber: null,
    actor: "test",
    enteredLocation: { latitude: 1, longitude: 10 },
  });
  return { db: database.db, clock, incidentId: incident.id, actor: "test" };
}

describe("caller tracks outside the snapshot", () => {
  it("store one row per position and a snapshot whose size does not grow with the track", async () => {
    const base = await newIncident();
    await addEnteredLocation({ ...base, point: { latitude: 2, longitude: 10 } });
    const small = await storedRow(base.incidentId);
    for (let i = 3; i <= 40; i++) await addEnteredLocation({ ...base, point: { latitude: i, longitude: 10 } });
    const after = await storedRow(base.incidentId);
    expect(after.snapshot.caller.tracks).toEqual([{ source: "Entered", track: [] }]);
    expect(after.size).toBe(small.size);
    expect(await database.db.incidentPosition.count({ where: { incidentId: base.incidentId } })).toBe(40);
    const read = (await readIncident({ db: database.db, incidentId: base.incidentId }))!;
    expect(read.snapshot.caller.tracks[0]!.track.map((l) => l.latitude)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });

  it("give each change the tracks as they were after it: appends, a replacement, a new source", async () => {
    const base = await newIncident();
    await addEnteredLocation({ ...base, point: { latitude: 2, longitude: 10 } });
    await addMeasuredLocation({ ...base, source: "MobileApp", fix: { latitude: 50, longitude: 10, accuracy: 100 } });
    const precise: TLocation = {
      type: "Measured",
      latitude: 51,
      longitude: 10,
      accuracy: 5,
      altitude: null,
      altitudeAccuracy: null,
      capturedAtUtc: clock.now().toISOString(),
      receivedAtUtc: clock.now().toISOString(),
      source: "MobileApp",
    };
    await replaceTrack({ ...base, source: "MobileApp", track: [precise] });
    await addMeasuredLocation({ ...base, source: "MobileApp", fix: { latitude: 52, longitude: 10, accuracy: 5 } });

    expect((await atSeq(base.incidentId)).map((c) => [c.seq, c.kind, latitudes(c.snapshot)])).toEqual([
      [1, "incident.created", [["Entered", [1]]]],
      [2, "caller.newLocation", [["Entered", [1, 2]]]],
      [
        3,
        "caller.newLocation",
        [
          ["Entered", [1, 2]],
          ["MobileApp", [50]],
        ],
      ],
      [
        4,
        "caller.trackReplaced",
        [
          ["Entered", [1, 2]],
          ["MobileApp", [51]],
        ],
      ],
      [
        5,
        "caller.newLocation",
        [
          ["Entered", [1, 2]],
          ["MobileApp", [51, 52]],
        ],
      ],
    ]);
    expect(latitudes((await readIncident({ db: database.db, incidentId: base.incidentId }))!.snapshot)).toEqual([
      ["Entered", [1, 2]],
      ["MobileApp", [51, 52]],
    ]);
  });

  it("migration incident_positions: an incident stored with its tracks inside moves them out; its older change records read as they were", async () => {
    const base = await newIncident();
    await addEnteredLocation({ ...base, point: { latitude: 2, longitude: 10 } });
    const full = (await readIncident({ db: database.db, incidentId: base.incidentId }))!.snapshot;
    // Back to the form before the migration: positions inside the row and the change records, no rows.
    await database.db.$executeRaw`DELETE FROM "IncidentPosition" WHERE "incidentId" = ${base.incidentId}::uuid`;
    await database.db
      .$executeRaw`UPDATE "Incident" SET snapshot = ${JSON.stringify(full)}::jsonb WHERE id = ${base.incidentId}::uuid`;
    await database.db
      .$executeRaw`UPDATE "IncidentChange" SET snapshot = ${JSON.stringify(full)}::jsonb WHERE "incidentId" = ${base.incidentId}::uuid`;
    expect(latitudes((await readIncident({ db: database.db, incidentId: base.incidentId }))!.snapshot)).toEqual([
      ["Entered", [1, 2]],
    ]);

    const sql = await readFile(path.join(MIGRATIONS_DIR, "20261123060000_incident_positions", "migration.sql"), "utf8");
    const moveOut = sql.slice(sql.indexOf("-- Existing incidents"));
    for (const statement of moveOut
      .split(/;\s*\n/)
      .map((s) => s.replace(/^--.*$/gm, "").trim())
      .filter(Boolean))
      await database.db.$executeRawUnsafe(statement);

    expect((await storedRow(base.incidentId)).snapshot.caller.tracks).toEqual([{ source: "Entered", track: [] }]);
    await addEnteredLocation({ ...base, point: { latitude: 3, longitude: 10 } });
    expect(latitudes((await readIncident({ db: database.db, incidentId: base.incidentId }))!.snapshot)).toEqual([
      ["Entered", [1, 2, 3]],
    ]);
    expect((await atSeq(base.incidentId)).map((c) => latitudes(c.snapshot))).toEqual([
      [["Entered", [1, 2]]],
      [["Entered", [1, 2]]],
      [["Entered", [1, 2, 3]]],
    ]);
  });

  it("are read only when the planner sends more than the appended position: an introduction carries the whole track", async () => {
    const base = await newIncident();
    for (let i = 2; i <= 4; i++) await addEnteredLocation({ ...base, point: { latitude: i, longitude: 10 } });
    await inviteAgency({ ...base, access: { agencyId: AGENCY.northPsap }, invitedAgencyId: AGENCY.centralEms });
    await addEnteredLocation({ ...base, point: { latitude: 5, longitude: 10 } });
    const rows = await database.db.$queryRaw<Array<{ integrationKey: string; eventName: string; body: any }>>`
      SELECT "integrationKey", "eventName", body FROM "WebhookDelivery" WHERE "incidentId" = ${base.incidentId}::uuid ORDER BY id`;
    // The integrations declare the minimal shape in this database (created +
    // generic changed). Appends plan a changed without tracks; Central EMS's introduction is a created
    // carrying the snapshot, so the tracks were read for it — whole, not just that change's positions.
    const ems = rows.filter((r) => r.integrationKey === "central-ems");
    expect(ems.map((r) => r.eventName)).toEqual(["created", "changed (trackAppended)"]);
    expect(ems[0]!.body.incident.caller.tracks).toEqual([
      { source: "Entered", track: [1, 2, 3, 4].map((lat) => expect.objectContaining({ latitude: lat })) },
    ]);
    expect(rows.filter((r) => r.integrationKey === "north-psap").map((r) => r.eventName)).toEqual([
      "created",
      ...Array(3).fill("changed (trackAppended)"),
      "changed (involvedAgency)",
      "changed (trackAppended)",
    ]);
  });
});
