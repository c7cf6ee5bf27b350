// An integration routed to its listener, driven by an in-process WebSocket client: a takeover
// closes the old connection (4001); the workbench stopping keeps the attachment, so attempts fail
// as "listener not connected" and flow in order when a listener is back; a listener held by another
// process is named; a listener that does not answer times out within the attempt deadline; frames
// are bounded (size, unknown ids).
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { forwardRequest } from "../../cli/listen/forward-request.ts";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { waitForEvents } from "../testing/webhook-harness.ts";
import { LISTEN_CLOSE, MAX_FRAME_BYTES, type TWorkbenchFrame } from "./listener-frames.ts";
import { closeListeners } from "./listener-session.ts";
import { detachIntegrationListener } from "../admin/manage-integrations.ts";
import { startConformanceRun } from "../../conformance/start-conformance-run.ts";
import { startListenWorkbench, type ListenWorkbench } from "./testing/listen-workbench.ts";
import { startLocalReceiver, type LocalReceiver } from "./testing/local-receiver.ts";

const incidentId = (i: number) => `5d1f0000-0000-4000-8000-${String(800 + i).padStart(12, "0")}`;
let w: ListenWorkbench;
let receiver: LocalReceiver;

beforeAll(async () => {
  w = await startListenWorkbench();
  receiver = await startLocalReceiver();
  await w.pointIntegration("north-psap", undefined, { url: receiver.url, insecureDev: true });
});
afterAll(async () => {
  await w?.close();
  await receiver?.close();
});

/** A listener in this process (an admin API token); `answer: false` leaves its requests unanswered. */
async function attach(options: { answer?: boolean } = {}) {
  const { createApiToken } = await import("../../workbench/access/api-tokens.ts");
  const { token } = await createApiToken({ ...w.runtime, input: { name: "t", role: "admin" }, createdBy: "test" });
  const ws = new WebSocket(`${w.url.replace("http", "ws")}/api/listen?integration=north-psap`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const requested: number[] = [];
  const closed = once(ws, "close").then(([code, reason]) => ({ code: code as number, reason: String(reason) }));
  const attachedFrame = new Promise<void>((resolve) =>
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as TWorkbenchFrame;
      if (frame.type === "attached") return resolve();
      requested.push(frame.id);
      if (options.answer !== false)
        void forwardRequest(receiver.url, frame).then((a) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(a)));
    }),
  );
  await attachedFrame;
  return { ws, closed, requested };
}

async function commit(id: string, seq: number) {
  const kind = seq === 1 ? { kind: "incident.created" as const } : { kind: "labelChanged" as const };
  await w.commit(buildChange(kind, buildSnapshot({ id, label: `L${seq}` }), { seq, producedAt: w.clock.now() }));
}

describe("an integration routed to its listener", () => {
  it("a new attach takes over: the old connection is closed with 4001", async () => {
    const first = await attach();
    const second = await attach();
    expect(await first.closed).toEqual({
      code: LISTEN_CLOSE.takenOver,
      reason: "another listen took over this integration",
    });
    second.ws.close();
    await second.closed;
  });

  it("detached on the dashboard: the row goes, the connection is closed (4002) within seconds", async () => {
    const l = await attach();
    expect(await detachIntegrationListener({ runtime: w.runtime, key: "north-psap" })).toEqual({ detached: true });
    expect(await w.database.db.integrationListener.count()).toBe(0);
    expect(await l.closed).toEqual({ code: LISTEN_CLOSE.detachedElsewhere, reason: "detached on the dashboard" });
  });

  it("the workbench stopping keeps the attachment: attempts fail as not connected, then flow in order", async () => {
    const l = await attach();
    await closeListeners(w.runtime); // what a stopping process does (start-webhook-engine.ts)
    expect((await l.closed).code).toBe(LISTEN_CLOSE.stopping);
    const row = await w.database.db.integrationListener.findUniqueOrThrow({ where: { integrationKey: "north-psap" } });
    expect(row.processId).toBeNull();
    const id = incidentId(1);
    const failed = waitForEvents("delivery:attempted", 1, (e) => e.incidentId === id);
    for (let seq = 1; seq <= 3; seq++) await commit(id, seq);
    expect((await failed)[0]![0].error).toMatch(/^listener not connected/);

    const delivered = waitForEvents("delivery:delivered", 3, (e) => e.incidentId === id, 30_000);
    const back = await attach();
    await delivered;
    const labels = receiver.deliveries.filter((d) => d.path.includes(id) || JSON.stringify(d.body).includes(id));
    expect(labels.map((d) => d.path.replace(id, "ID"))).toEqual([
      "/v3/incidents",
      "/v3/incidents/ID/label",
      "/v3/incidents/ID/label",
    ]);
    back.ws.close();
    await back.closed;
  });

  it("held by another process: the attempt says so; an unanswered request times out at the deadline", async () => {
    // The last test's listener closed: wait for its process to let go of the row first.
    for (let i = 0; i < 100; i++) {
      const row = await w.database.db.integrationListener.findUniqueOrThrow({
        where: { integrationKey: "north-psap" },
      });
      if (row.processId === null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await w.database.db.integrationListener.update({
      where: { integrationKey: "north-psap" },
      data: { processId: "another-process", seenAt: w.clock.now() },
    });
    const id = incidentId(2);
    const elsewhere = waitForEvents("delivery:attempted", 1, (e) => e.incidentId === id);
    await commit(id, 1);
    expect((await elsewhere)[0]![0].error).toMatch(/^listener connected to another workbench process/);

    const silent = await attach({ answer: false });
    const timedOut = waitForEvents(
      "delivery:attempted",
      1,
      (e) => e.incidentId === id && e.error !== null && /timeout/.test(e.error),
      20_000,
    );
    expect((await timedOut)[0]![0].error).toMatch(/^timeout: the listener did not answer within (3000|29\d\d) ms$/);
    silent.ws.close();
    await silent.closed;
  });

  it("the conformance kit runs against listen:KEY through the listener; without one attached it is refused", async () => {
    await w.database.db.integrationListener.deleteMany();
    await expect(startConformanceRun(w.runtime, { receiverUrl: "listen:north-psap" })).rejects.toThrow(
      "No listener is attached to north-psap",
    );
    const l = await attach();
    const before = receiver.discovery.length;
    const run = await startConformanceRun(w.runtime, { receiverUrl: "listen:north-psap" });
    expect(["passed", "failed"]).toContain(await run.done);
    // The kit's requests reached the loopback receiver (refused to the workbench itself in shared mode).
    expect(receiver.discovery.slice(before)).toContain("GET /about");
    const stored = await w.database.db.conformanceRun.findUniqueOrThrow({ where: { id: run.id } });
    expect(stored.receiverUrl).toBe("listen://north-psap");
    l.ws.close();
    await l.closed;
  }, 90_000);

  it("frames are bounded: too large closes with 1009, a flood and an answer to an id never sent with 4008", async () => {
    const big = await attach();
    big.ws.send("x".repeat(MAX_FRAME_BYTES + 1));
    expect((await big.closed).code).toBe(1009);
    const flood = await attach({ answer: false }); // request 1 (its /about) stays outstanding until answered
    while (flood.requested.length === 0) await new Promise((r) => setTimeout(r, 20));
    const late = JSON.stringify({ type: "response", id: 1, status: 200, headers: {}, body: "", error: null });
    for (let i = 0; i < 1_001; i++) flood.ws.send(late); // answered once, then dropped as late: only the rate ends it
    expect(await flood.closed).toEqual({
      code: LISTEN_CLOSE.protocolViolation,
      reason: "more than 1000 frames a second",
    });
    const liar = await attach();
    liar.ws.send(JSON.stringify({ type: "response", id: 999_999, status: 200, headers: {}, body: "", error: null }));
    expect(await liar.closed).toEqual({
      code: LISTEN_CLOSE.protocolViolation,
      reason: "the listener answered request 999999, never sent",
    });
  });
});
