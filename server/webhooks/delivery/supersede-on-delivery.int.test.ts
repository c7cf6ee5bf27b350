// The deliverer's side of the cutover (Versioning rule 3, Delivery rule 7, decision 0049): a claimed
// event planned under another major version than the one accepted is never sent. Here the
// declaration is accepted without discovery's cut-over of the lanes (as when another process
// accepted it, or one stopped between the two): the deliverer supersedes the event itself, cuts its
// lane over in the same transaction, and the incident goes as the create-and-track sequence of its
// current snapshot under the accepted contract. When the declaration it reads in that transaction
// says the event's contract is the accepted one after all (its target loader is a second old at
// most), the event is held a moment, not superseded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscribeToChanges } from "../../incidents/change-record.ts";
import { createIncident } from "../../incidents/create-incident.ts";
import { setIncidentText } from "../../incidents/set-incident-text.ts";
import { setReceiverCapabilities } from "../../reference-receiver/receiver-capabilities.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { planDeliveriesOnChange } from "../planning/plan-deliveries.ts";
import { cutOverLane } from "../planning/supersede-queued-events.ts";
import { waitForEvents } from "../testing/webhook-harness.ts";
import { claimDeliveries, releaseClaims } from "./claim-deliveries.ts";
import { deliverEvent, type DeliverDeps } from "./deliver-event.ts";
import { createDeliveryTargetLoader, type DeliveryTargetLoader } from "./load-delivery-target.ts";

const FIRE = "0b0c5b52-1c0e-4a57-9a57-000000000003";
const KEY = "fire-rescue";
let s: TestServer;
let unsubscribe = () => {};
let targets: DeliveryTargetLoader;

beforeAll(async () => {
  s = await startTestServer();
  unsubscribe = subscribeToChanges(planDeliveriesOnChange);
  targets = createDeliveryTargetLoader(s.runtime.db);
});
afterAll(async () => {
  targets?.close();
  unsubscribe();
  await s?.close();
});

/** An accepted declaration of `major`, written as discovery writes it, without discovery's cut-over of the lanes. */
async function accept(major: 2 | 3) {
  await setReceiverCapabilities({ db: s.runtime.db, clock: s.runtime.clock, key: KEY, version: `${major}.0` });
  const data = {
    status: "active",
    version: `${major}.0`,
    majorVersion: major,
    flags: major === 3 ? ["incident.created", "incident.changed", "caller.trackReplaced"] : [],
    credential: major === 3 ? "Publisher" : "PsapConnector",
    checkedAt: s.runtime.clock.now(),
    nextCheckAt: new Date(s.runtime.clock.nowMs() + 3_600_000),
  };
  await s.runtime.db.webhookCapabilities.upsert({
    where: { integrationKey: KEY },
    create: { integrationKey: KEY, ...data },
    update: data,
  });
  targets.clear();
}
async function newIncident(label: string) {
  const { incident } = await createIncident({
    db: s.runtime.db,
    clock: s.runtime.clock,
    portalUrl: s.url,
    purpose: "Demo",
    routingMode: "TokenAgency",
    createdByAgencyId: FIRE,
    agencyIds: [FIRE],
    phoneNumber: "+358401112229",
    enteredLocation: { latitude: 60.2, longitude: 24.9 },
    label,
    actor: "supersede-test",
  });
  await setIncidentText({
    db: s.runtime.db,
    clock: s.runtime.clock,
    incidentId: incident.id,
    actor: "supersede-test",
    field: "summary",
    value: "Two inside",
  });
  return incident.id;
}
const deps = (loader: Pick<DeliveryTargetLoader, "load">): DeliverDeps => ({
  runtime: s.runtime,
  workerId: "supersede-test",
  targets: loader as DeliveryTargetLoader,
  timeoutMs: 5_000,
  cutOverLane,
});
/** Claims the incident's lane head (only a head is ever claimed) and delivers it; null when it has none ready. */
async function deliverHead(incidentId: string, loader: Pick<DeliveryTargetLoader, "load"> = targets) {
  const claimed = await claimDeliveries(s.runtime.db, {
    now: s.runtime.clock.now(),
    leaseMs: 30_000,
    workerId: "supersede-test",
    limit: 50,
  });
  const head = claimed.find((r) => r.incidentId === incidentId) ?? null;
  const others = claimed.filter((r) => r !== head).map((r) => r.id);
  if (others.length) await releaseClaims(s.runtime.db, { ids: others, workerId: "supersede-test" });
  if (head) await deliverEvent(deps(loader), head);
  return head;
}
const lane = async (incidentId: string) =>
  (
    await s.runtime.db.webhookDelivery.findMany({
      where: { integrationKey: KEY, incidentId },
      orderBy: { id: "asc" },
      include: { attempts: true },
    })
  ).map((d) => `${d.method} ${d.path.replaceAll(incidentId, "{id}")} ${d.state} ${d.attempts.length}`);

describe("the deliverer meets an event of another major version", () => {
  it("does not send it: superseded unsent with the rest of its contract's queue, the lane cut over to the accepted contract", async () => {
    await accept(2);
    const id = await newIncident("Smoke");
    expect(await lane(id)).toEqual([
      "POST /v2/incident pending 0",
      "PUT /v2/incident/{id}/position pending 0",
      "POST /v2/incident pending 0",
    ]);
    await accept(3);
    const superseded = waitForEvents("delivery:superseded", 3, (e) => e.incidentId === id);
    const cutOver = waitForEvents("lane:cut-over", 1, (e) => e.incidentId === id);
    expect((await deliverHead(id))?.path).toBe("/v2/incident");
    expect((await superseded).map(([e]) => [e.path.replaceAll(id, "{id}"), e.attempts, e.acceptedMajor])).toEqual([
      ["/v2/incident/{id}/position", 0, 3],
      ["/v2/incident", 0, 3],
      ["/v2/incident", 0, 3],
    ]);
    expect((await cutOver)[0]![0]).toMatchObject({ acceptedMajor: 3, superseded: 3, introduced: 2 });
    // The create-and-track sequence of the current snapshot (its summary included), then nothing of v2.
    for (let head = await deliverHead(id); head; head = await deliverHead(id)) expect(head.path).toMatch(/^\/v3\//);
    expect(await lane(id)).toEqual([
      "POST /v2/incident superseded 0",
      "PUT /v2/incident/{id}/position superseded 0",
      "POST /v2/incident superseded 0",
      "POST /v3/incidents delivered 1",
      "PUT /v3/incidents/{id}/caller/track delivered 1",
    ]);
    const create = await s.runtime.db.webhookDelivery.findFirstOrThrow({
      where: { integrationKey: KEY, incidentId: id, path: "/v3/incidents" },
    });
    expect(create.body).toMatchObject({ incident: { label: "Smoke", summary: "Two inside" } });
    const records = await s.runtime.db.receiverRecord.findMany({ where: { integrationKey: KEY, incidentId: id } });
    expect(records.map((r) => r.path.replaceAll(id, "{id}")).sort()).toEqual([
      "/v3/incidents",
      "/v3/incidents/{id}/caller/track",
    ]);
  });

  it("holds it a moment when the declaration read in the transaction is of its own contract after all (the loader was stale)", async () => {
    await accept(2);
    const id = await newIncident("Steam");
    const stale: Pick<DeliveryTargetLoader, "load"> = {
      load: async (key) => ({ ...(await targets.load(key))!, majorVersion: 3 }),
    };
    const held = waitForEvents("delivery:held", 1, (e) => e.incidentId === id);
    const now = s.runtime.clock.nowMs();
    expect((await deliverHead(id, stale))?.path).toBe("/v2/incident");
    const [event] = (await held)[0]!;
    expect(event.retryAt.getTime() - now).toBeGreaterThanOrEqual(1_000);
    expect(event.retryAt.getTime() - now).toBeLessThan(5_000);
    expect(await lane(id)).toEqual([
      "POST /v2/incident pending 0",
      "PUT /v2/incident/{id}/position pending 0",
      "POST /v2/incident pending 0",
    ]);
  });
});
