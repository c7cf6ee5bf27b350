// The dashboard's (and CLI's) view of the inbound API: SMS list, incident, OpenAPI.
import { Writable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createCaller } from "../root.ts";
import { createTRPCContext } from "../trpc.ts";
import { setRuntime, type Runtime } from "../../runtime.ts";
import { WorkbenchClock } from "../../platform/clock/clock.ts";
import { createLogger } from "../../platform/logger.ts";
import { parseEnv } from "../../platform/env.ts";
import { SigningKeyStore } from "../../platform/signing-keys.ts";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { sendLocationSms } from "../../incidents/location-sms.ts";
import { DEMO_INCIDENT } from "../../incidents/seed-demo-incidents.ts";
import { AGENCY } from "../../../prisma/seed.ts";

let t: TestDatabase;
let runtime: Runtime;
let caller: ReturnType<typeof createCaller>;
beforeAll(async () => {
  t = await createTestDatabase();
  const clock = new WorkbenchClock();
  runtime = {
    env: parseEnv({ NODE_ENV: "test" }),
    db: t.db,
    databaseUrl: t.url,
    clock,
    keys: new SigningKeyStore({ db: t.db, clock }),
    logger: createLogger({ destination: new Writable({ write: (_c, _e, d) => d() }) }),
    databaseMode: t.mode,
  };
  setRuntime(runtime);
  caller = createCaller(await createTRPCContext({ headers: new Headers() }));
});
afterAll(async () => {
  setRuntime(undefined);
  await t.drop();
});

it("lists simulated SMS newest first, per incident", async () => {
  const sent = await sendLocationSms({
    db: t.db,
    clock: runtime.clock,
    incidentId: DEMO_INCIDENT.northFall,
    actor: "test",
    portalUrl: "http://wb.test",
    agencyId: AGENCY.northPsap,
  });
  const list = await caller.inbound.smsList({ incidentId: DEMO_INCIDENT.northFall });
  expect(list).toEqual([
    expect.objectContaining({ smsId: sent.result.smsId, sentTo: "+4790000100", openedAtUtc: null }),
  ]);
  expect(await caller.inbound.smsList({ incidentId: DEMO_INCIDENT.emsChestPain })).toEqual([]);
});

it("reads an incident with its change records", async () => {
  const incident = await caller.inbound.incident({ incidentId: DEMO_INCIDENT.northFall });
  expect(incident?.changes.map((c) => c.kind)).toEqual(["incident.created", "caller.chat.activated"]);
  expect(await caller.inbound.incident({ incidentId: "7e57e57e-0000-4000-8000-000000000000" })).toBeNull();
});
