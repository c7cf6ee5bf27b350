// A receiver URL change with events queued (decision 0062; outbound webhooks, capability rules 2, 5
// and 6): the events planned for the old receiver — its declared routes, appends to tracks the new
// one never got — are never sent to the new one. Once the new receiver's declaration is accepted they
// are superseded, as at a cutover, and the new receiver gets the incident's create-and-track sequence
// from its current snapshot first; an event in flight to the old receiver that fails is superseded on
// its outcome, never retried to the new one.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addMeasuredLocation } from "../../incidents/caller-track.ts";
import { createTestIncident } from "../../incidents/testing/create-test-incident.ts";
import { setIncidentText } from "../../incidents/set-incident-text.ts";
import { V3_FLAGS } from "../../webhook-contracts/v3/capability-flags.ts";
import { startDeliveryWorker, type DeliveryWorker } from "../delivery/delivery-worker.ts";
import { cutOverLane } from "../planning/supersede-queued-events.ts";
import { startRecordingReceiver, type RecordingReceiver } from "../testing/recording-receiver.ts";
import { startWebhookHarness, waitForEvents, type WebhookHarness } from "../testing/webhook-harness.ts";
import { setIntegration } from "./manage-integrations.ts";

/** The new receiver declares every v3 flag (answered on GET /about). */
const ABOUT = {
  version: "3.0",
  supports: { incident: Object.fromEntries(V3_FLAGS.map((f) => [f.replace(/^incident\./, ""), true])) },
};

let h: WebhookHarness;
let moved: RecordingReceiver;
let worker: DeliveryWorker;
beforeEach(async () => {
  h = await startWebhookHarness();
  moved = await startRecordingReceiver({ about: nested(ABOUT) });
  worker = await startDeliveryWorker(h.runtime, { cutOverLane, timeoutMs: 3_000 });
});
afterEach(async () => {
  await worker.stop();
  await moved.close();
  await h.close();
});

/** The flat flag list as /about's tree (`caller.chat.activated` → caller: { chat: { activated } }). */
function nested(about: typeof ABOUT) {
  const tree: Record<string, unknown> = {};
  for (const path of Object.keys(about.supports.incident)) {
    const parts = path.split(".");
    let node = tree;
    for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = true;
  }
  return { ...about, supports: { incident: tree } };
}

const op = (incidentId: string) => ({ db: h.runtime.db, clock: h.clock, incidentId, actor: "move-test" });

/** An incident for north-psap with a MobileApp track and a label: create, track, appends, label. */
async function incidentWithQueue() {
  const incident = await createTestIncident(h.runtime.db, h.clock, { phoneNumber: "+4791234567" });
  const fix = (latitude: number) => ({
    source: "MobileApp" as const,
    fix: { latitude, longitude: 10.75, accuracy: 20 },
  });
  await addMeasuredLocation({ ...op(incident.id), ...fix(59.91) });
  await addMeasuredLocation({ ...op(incident.id), ...fix(59.92) });
  await setIncidentText({ ...op(incident.id), field: "label", value: "Fall" });
  await addMeasuredLocation({ ...op(incident.id), ...fix(59.93) });
  return incident.id;
}

const states = async (incidentId: string) =>
  (
    await h.runtime.db.webhookDelivery.findMany({
      where: { incidentId, integrationKey: "north-psap" },
      orderBy: { id: "asc" },
      select: { method: true, path: true, state: true },
    })
  ).map((d) => `${d.state} ${d.method} ${d.path.replace(`/${incidentId}`, "")}`);

describe("a receiver URL change with events queued", () => {
  it("supersedes what was queued for the old receiver and sends the new one create-and-track from the current snapshot first", async () => {
    h.receiver.respondWith(() => 503); // the old receiver is down: the lane's events queue behind its head
    const held = waitForEvents("delivery:attempted", 1);
    const incidentId = await incidentWithQueue();
    await held;

    const supersededAll = waitForEvents("delivery:superseded", 5, (e) => e.incidentId === incidentId);
    const result = await setIntegration({
      runtime: h.runtime,
      input: { key: "north-psap", url: moved.url, insecureDev: true },
    });
    expect(result.status).toBe("active");
    await supersededAll;
    await waitForEvents(
      "delivery:delivered",
      1,
      (e) => e.incidentId === incidentId && e.path.endsWith("/caller/track"),
    );

    // The new receiver got the whole incident as it is now, then its whole track; no old event.
    const sent = moved.received.filter((r) => r.incidentId === incidentId);
    expect(sent.map((r) => `${r.method} ${r.path.replace(`/${incidentId}`, "")}`)).toEqual([
      "POST /v3/incidents",
      "PUT /v3/incidents/caller/track",
    ]);
    const incident = (sent[0]!.body as { incident: { label: string; caller: { tracks: unknown[] } } }).incident;
    expect(incident.label).toBe("Fall");
    expect((sent[1]!.body as { track: Array<{ latitude: number }> }).track.map((l) => l.latitude)).toEqual([
      59.91, 59.92, 59.93,
    ]);
    expect(await states(incidentId)).toEqual([
      "superseded POST /v3/incidents",
      "superseded PUT /v3/incidents/caller/track",
      "superseded POST /v3/incidents/caller/track",
      "superseded PATCH /v3/incidents/label",
      "superseded POST /v3/incidents/caller/track",
      "delivered POST /v3/incidents",
      "delivered PUT /v3/incidents/caller/track",
    ]);
  });

  it("an event in flight to the old receiver that fails is superseded on its outcome, not retried to the new one", async () => {
    let answer: (status: number) => void = () => {};
    h.receiver.respondWith(() => new Promise<number>((resolve) => (answer = resolve)));
    const incident = await createTestIncident(h.runtime.db, h.clock);
    await expect.poll(() => h.receiver.received.filter((r) => r.incidentId === incident.id).length).toBe(1);
    await setIncidentText({ ...op(incident.id), field: "label", value: "Queued behind" });

    await setIntegration({ runtime: h.runtime, input: { key: "north-psap", url: moved.url, insecureDev: true } });
    const superseded = waitForEvents("delivery:superseded", 1, (e) => e.path === "/v3/incidents");
    answer(503); // the old receiver fails the create it held
    await superseded;
    await waitForEvents("delivery:delivered", 1, (e) => e.incidentId === incident.id);

    expect(moved.received.filter((r) => r.incidentId === incident.id).map((r) => r.path)).toEqual(["/v3/incidents"]);
    expect(await states(incident.id)).toEqual([
      "superseded POST /v3/incidents",
      "superseded PATCH /v3/incidents/label",
      "delivered POST /v3/incidents",
    ]);
  });
});
