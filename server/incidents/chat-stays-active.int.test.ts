// The snapshot's chat: "null only until chat is activated, never null again while the incident is
// open" (spec, "Webhook incident snapshot (v3)"; state table: chat "stays active until the incident
// closes"). Every operation on the caller after the activation keeps it as activated, and a change
// whose mutation would take it back is refused, recording nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { applyIncidentChange } from "./apply-change.ts";
import { addMeasuredLocation } from "./caller-track.ts";
import {
  linkDataSource,
  reportProblems,
  setCallerFullName,
  setCallerPhoneNumber,
  setDeviceInfo,
  setMedicData,
} from "./caller-data.ts";
import { createTestIncident } from "./testing/create-test-incident.ts";
import { activateChat, activateLiveVideo, endLiveVideo } from "./reach-caller.ts";
import { readIncident } from "./read-incident.ts";
import { emptyMedicData, setTemporaryInformation } from "./temporary-information.ts";

let database: TestDatabase;
const clock = new WorkbenchClock();
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function incidentWithChat() {
  const incident = await createTestIncident(database.db, clock, { phoneNumber: "+4791234567" });
  const op = { db: database.db, clock, incidentId: incident.id, actor: "chat-test" };
  await activateChat({ ...op, portalUrl: "http://wb.test" });
  const chat = (await readIncident({ db: database.db, incidentId: incident.id }))!.snapshot.caller.chat;
  expect(chat).toMatchObject({ state: "Active", portalUrl: expect.stringContaining("/chat") });
  return { op, chat };
}

const chatOf = async (incidentId: string) =>
  (await readIncident({ db: database.db, incidentId }))!.snapshot.caller.chat;

describe("the caller's chat once activated", () => {
  it("stays as activated through every operation on the caller while the incident is open", async () => {
    const { op, chat } = await incidentWithChat();
    const operations: Array<[string, () => Promise<unknown>]> = [
      ["full name", () => setCallerFullName({ ...op, fullName: "Ola Nordmann" })],
      ["phone number", () => setCallerPhoneNumber({ ...op, phoneNumber: "+4799999999" })],
      ["device info", () => setDeviceInfo({ ...op, deviceInfo: null })],
      ["medical data", () => setMedicData({ ...op, medicData: emptyMedicData() })],
      ["problems", () => reportProblems({ ...op, problems: ["trapped"] })],
      ["a data source", () => linkDataSource({ ...op, source: { kind: "webApp" } })],
      [
        "a location",
        () =>
          addMeasuredLocation({ ...op, source: "MobileApp", fix: { latitude: 59.9, longitude: 10.7, accuracy: 9 } }),
      ],
      ["a warning", () => setTemporaryInformation({ ...op, warning: "Dog in the flat", validForS: 60 })],
      ["live video", () => activateLiveVideo({ ...op, portalUrl: "http://wb.test", durationS: 60 })],
      ["live video ended", () => endLiveVideo(op)],
    ];
    for (const [name, operation] of operations) {
      await operation();
      expect(await chatOf(op.incidentId), `after ${name}`).toEqual(chat);
    }
    await expect(activateChat({ ...op, portalUrl: "http://wb.test" })).rejects.toMatchObject({
      code: "ChatAlreadyActive",
    });
  });

  it("refuses a change that would take it back: nothing is recorded", async () => {
    const { op, chat } = await incidentWithChat();
    const before = await database.db.incidentChange.count({ where: { incidentId: op.incidentId } });
    await expect(
      applyIncidentChange({
        ...op,
        mutate: ({ incident }) => {
          incident.snapshot.caller.chat = null;
          return { changes: [{ kind: "caller.changed", what: "chat" }], result: null };
        },
      }),
    ).rejects.toThrow(/would clear the caller's activated chat/);
    expect(await chatOf(op.incidentId)).toEqual(chat);
    expect(await database.db.incidentChange.count({ where: { incidentId: op.incidentId } })).toBe(before);
  });
});
