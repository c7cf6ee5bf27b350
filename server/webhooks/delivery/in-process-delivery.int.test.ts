// Deliveries to this process's own embedded receivers are answered in-process (docs/decisions/0028):
// no loopback socket, the same receiver app, the same deadline, and the simulated network faults of a
// receiver ("down", "timeout") still end the attempt as they would over a socket.
import http from "node:http";
import https from "node:https";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Hono } from "hono";
import { setReceiverFault } from "../../reference-receiver/integration-faults.ts";
import { serveOwnOriginInProcess } from "../../http/create-server.ts";
import { inProcessHandler } from "../../platform/network/in-process-origins.ts";
import { startScenario, type Scenario } from "../../whole-chain/testing/scenario-fixture.ts";
import { sendRequest } from "../sending/send-request.ts";

let s: Scenario;
let token: string;
beforeAll(async () => {
  s = await startScenario();
  token = await s.requestToken();
});
afterAll(async () => {
  await s?.close();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", mode: "ok" });
});

const embedded = { kind: "embedded" as const, insecureDev: true }; // plain http on loopback, as the seed sets it
const createUrl = () => `${s.server.url}/receivers/north-psap/v3/incidents`;
const fault = (mode: "down" | "timeout") =>
  setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", mode });

describe("deliveries to the workbench's own embedded receivers", () => {
  it("go in-process: an incident reaches its embedded receiver without an HTTP request leaving the process", async () => {
    const requests = [vi.spyOn(http, "request"), vi.spyOn(https, "request")];
    const id = await s.createIncident(token);
    await s.settled(id);
    const records = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: "north-psap", incidentId: id },
    });
    expect(records.map((r) => [r.method, r.path, r.status, r.outcome])).toEqual([
      ["POST", "/v3/incidents", 200, "accepted"],
    ]);
    const attempts = await s.runtime.db.webhookAttempt.findMany({
      where: { delivery: { integrationKey: "north-psap", incidentId: id } },
    });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      status: 200,
      url: createUrl(),
      requestHeaders: expect.objectContaining({ authorization: "Bearer [redacted]" }),
      responseHeaders: expect.objectContaining({ "content-type": "application/json" }),
    });
    for (const request of requests) expect(request).not.toHaveBeenCalled();
  });

  it("a receiver that is down drops the in-process connection: no answer, nothing recorded", async () => {
    await fault("down");
    const before = await s.runtime.db.receiverRecord.count();
    const result = await sendRequest({ url: createUrl(), method: "POST", headers: {}, body: "{}", target: embedded });
    expect(result).toMatchObject({ status: null, error: "ECONNRESET: socket hang up", body: null });
    expect(await s.runtime.db.receiverRecord.count()).toBe(before);
  });

  it("a receiver that holds the request is let go at the attempt's deadline", async () => {
    await fault("timeout");
    const started = performance.now();
    const result = await sendRequest({
      url: createUrl(),
      method: "POST",
      headers: {},
      body: "{}",
      target: embedded,
      timeoutMs: 300,
    });
    expect(result).toMatchObject({ status: null, error: "timeout: no response within 300 ms" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    const held = await s.runtime.db.receiverRecord.findFirst({ orderBy: { id: "desc" } });
    expect(held).toMatchObject({ outcome: "fault", detail: "timeout: held without answering" });
  });

  it("only for the origin of this process's own PUBLIC_URL, and not when PUBLIC_URL has a path", () => {
    expect(inProcessHandler(new URL(s.server.url).origin)).toBeDefined();
    expect(inProcessHandler("http://127.0.0.1:1")).toBeUndefined();
    const app = new Hono();
    const undoPath = serveOwnOriginInProcess({ PUBLIC_URL: "http://wb.test:8080/workbench" }, app);
    expect(inProcessHandler("http://wb.test:8080")).toBeUndefined();
    undoPath();
    const undo = serveOwnOriginInProcess({ PUBLIC_URL: "http://wb.test:8080/" }, app);
    expect(inProcessHandler("http://wb.test:8080")).toBeDefined();
    undo();
    expect(inProcessHandler("http://wb.test:8080")).toBeUndefined();
  });
});
