import { describe, expect, it } from "vitest";
import { receiverMatchers } from "./matchers.ts";
import type { ReceivedRequest, Receiver } from "./receivers.ts";

const INCIDENT = "0d2f7a52-7a0e-4b8e-9a55-2c1f7a9e0001";
const OTHER = "0d2f7a52-7a0e-4b8e-9a55-2c1f7a9e0002";

const request = (over: Partial<ReceivedRequest>): ReceivedRequest => ({
  method: "POST",
  path: "/v3/incidents",
  incidentId: INCIDENT,
  serviceRequestId: "sr-1",
  status: 200,
  body: null,
  receivedAt: "2026-11-25T00:00:00.000Z",
  ...over,
});

/** A receiver whose requests arrive when the test says, as a real one's arrive while the matcher polls. */
function fakeReceiver(initial: ReceivedRequest[] = []) {
  const requests = [...initial];
  const receiver: Receiver = { name: "test receiver", received: () => Promise.resolve([...requests]) };
  return { receiver, arrive: (r: ReceivedRequest) => requests.push(r) };
}

const toHaveReceived = (isNot: boolean, ...args: Parameters<typeof receiverMatchers.toHaveReceived>) =>
  receiverMatchers.toHaveReceived.call({ isNot }, ...args);

describe("toHaveReceived", () => {
  it("passes once the request arrives, waiting for it", async () => {
    const { receiver, arrive } = fakeReceiver([request({})]);
    setTimeout(() => arrive(request({ method: "PATCH", path: `/v3/incidents/${INCIDENT}/label` })), 250);
    const started = Date.now();
    const result = await toHaveReceived(false, receiver, "PATCH", "/label", { incidentId: INCIDENT, timeout: 5_000 });
    expect(result.pass).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it("fails after the timeout with what did arrive for that incident", async () => {
    const { receiver } = fakeReceiver([
      request({ serviceRequestId: "sr-create" }),
      request({ method: "PUT", path: `/v3/incidents/${INCIDENT}/caller/track`, status: 503, serviceRequestId: "sr-t" }),
      request({ incidentId: OTHER, serviceRequestId: "sr-other" }),
    ]);
    const result = await toHaveReceived(false, receiver, "PATCH", "/label", { incidentId: INCIDENT, timeout: 300 });
    expect(result.pass).toBe(false);
    expect(result.message()).toBe(
      [
        `Expected test receiver to have received PATCH …/label for incident ${INCIDENT}; found 0 within 300 ms.`,
        "What arrived:",
        "  POST  /v3/incidents → 200  (sr-create)",
        `  PUT   /v3/incidents/${INCIDENT}/caller/track → 503  (sr-t)`,
      ].join("\n"),
    );
  });

  it("says so when nothing arrived for the incident", async () => {
    const { receiver } = fakeReceiver([request({ incidentId: OTHER })]);
    const result = await toHaveReceived(false, receiver, "POST", "/v3/incidents", { incidentId: INCIDENT, timeout: 0 });
    expect(result.message()).toContain("What arrived:\n  nothing for that incident");
  });

  it("matches the answer's status and a partial body", async () => {
    const { receiver } = fakeReceiver([
      request({ status: 503, body: { incident: { label: "Fall", purpose: "Real" } } }),
      request({ status: 200, body: { incident: { label: "Fall", purpose: "Real" } } }),
    ]);
    const args = ["POST", "/v3/incidents"] as const;
    expect((await toHaveReceived(false, receiver, ...args, { status: 503, timeout: 0 })).pass).toBe(true);
    expect((await toHaveReceived(false, receiver, ...args, { body: { incident: { label: "Fall" } } })).pass).toBe(true);
    const wrong = await toHaveReceived(false, receiver, ...args, { body: { incident: { label: "Fire" } }, timeout: 0 });
    expect(wrong.pass).toBe(false);
    expect(wrong.message()).toContain(`with body {"incident":{"label":"Fire"}}`);
  });

  it("counts exactly with `times`", async () => {
    const { receiver } = fakeReceiver([request({ status: 503 }), request({ status: 200 })]);
    expect((await toHaveReceived(false, receiver, "POST", "/v3/incidents", { times: 2, timeout: 0 })).pass).toBe(true);
    const once = await toHaveReceived(false, receiver, "POST", "/v3/incidents", { times: 1, timeout: 0 });
    expect(once.pass).toBe(false);
    expect(once.message()).toContain("exactly 1 time(s); found 2");
  });

  it("under `.not`, waits the whole timeout so a late request still fails it", async () => {
    const { receiver, arrive } = fakeReceiver();
    setTimeout(() => arrive(request({ method: "PATCH", path: `/v3/incidents/${INCIDENT}/label` })), 150);
    const result = await toHaveReceived(true, receiver, "PATCH", "/label", { timeout: 600 });
    // pass=true is what makes `.not` fail.
    expect(result.pass).toBe(true);
    expect(result.message()).toMatch(/^Expected test receiver not to have received PATCH …\/label; found 1 within/);
  });
});
