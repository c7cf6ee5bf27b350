// Migration change_kinds_named_by_flag: change records stored under the five kinds that had names of
// their own read, after it, under their flags' names (webhook-contracts/v3/routes.ts), and no other
// record changes.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import { MIGRATIONS_DIR } from "../platform/db/apply-migrations.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { createTestIncident } from "./testing/create-test-incident.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const RENAMED: Array<[string, string]> = [
  ["caller.locationAdded", "caller.newLocation"],
  ["caller.chatActivated", "caller.chat.activated"],
  ["caller.liveVideoActivated", "caller.liveVideo.activated"],
  ["caller.liveVideoEnded", "caller.liveVideo.ended"],
  ["involvedAgency.collaborationChanged", "involvedAgency.collaboration.changed"],
];

it("renames the stored kinds to their flags' names and leaves every other record as it was", async () => {
  const { db } = database;
  const incident = await createTestIncident(db, new WorkbenchClock());
  // Records as a workbench before the migration stored them, behind the create (seq 1).
  const kinds = [...RENAMED.map(([old]) => old), "labelChanged"];
  for (const [i, kind] of kinds.entries())
    await db.$executeRaw`
      INSERT INTO "IncidentChange" ("incidentId", seq, kind, payload, "producedAt", actor, snapshot)
      SELECT "incidentId", ${i + 2}, ${kind}, payload, "producedAt", actor, snapshot
      FROM "IncidentChange" WHERE "incidentId" = ${incident.id}::uuid AND seq = 1`;

  const sql = await readFile(
    path.join(MIGRATIONS_DIR, "20261129090000_change_kinds_named_by_flag", "migration.sql"),
    "utf8",
  );
  await db.$executeRawUnsafe(sql);

  const rows = await db.incidentChange.findMany({ where: { incidentId: incident.id }, orderBy: { seq: "asc" } });
  expect(rows.map((r) => r.kind)).toEqual(["incident.created", ...RENAMED.map(([, flag]) => flag), "labelChanged"]);
});
