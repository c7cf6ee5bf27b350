// Found by running it: `integrations set north-psap --url <the absolute URL integrations list
// prints>` made the embedded receiver vanish (/about and /health 404, deliveries stalled). An
// absolute URL on the workbench's own origin naming /receivers/{key} is the embedded receiver.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createCaller } from "../api/root.ts";
import { createTRPCContext } from "../api/trpc.ts";
import { startScenario, type Scenario } from "./testing/scenario-fixture.ts";
import { receiverClient } from "../reference-receiver/testing/deliver.ts";
import { AGENCY } from "../../prisma/seed.ts";

let s: Scenario;
beforeAll(async () => {
  s = await startScenario();
});
afterAll(async () => {
  await s.close();
});

it("integrations set with the embedded receiver's absolute URL keeps it embedded: /about and /health answer, deliveries arrive", async () => {
  const caller = createCaller(await createTRPCContext({ headers: new Headers() }));
  const printed = (await caller.integrations.list()).find((i) => i.key === "north-psap")!.resolvedUrl;
  expect(printed).toBe(`${s.server.url}/receivers/north-psap`);

  // As a user types it: no --insecure-dev, a trailing slash.
  const result = await caller.integrations.set({ key: "north-psap", url: `${printed}/` });
  expect(result).toMatchObject({ status: "active", error: null });
  const stored = await s.runtime.db.integration.findUniqueOrThrow({ where: { key: "north-psap" } });
  expect([stored.receiverUrl, stored.insecureDev]).toEqual(["/receivers/north-psap", true]);

  const receiver = receiverClient(s.server, "north-psap", AGENCY.northPsap);
  const about = await fetch(`${receiver.url}/about`, {
    headers: { authorization: `Bearer ${await receiver.token()}` },
  });
  expect(about.status).toBe(200);
  expect((await fetch(`${receiver.url}/health`)).status).toBe(200);

  const token = await s.requestToken();
  const incidentId = await s.createIncident(token);
  await s.settled(incidentId, "north-psap");
  const deliveries = await s.deliveries("north-psap", incidentId);
  expect(deliveries.length).toBeGreaterThan(0);
  expect(deliveries.every((d) => d.state === "delivered")).toBe(true);
  expect((await s.records("north-psap", incidentId)).length).toBe(deliveries.length);
});
