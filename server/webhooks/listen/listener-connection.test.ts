// The workbench's side of a listener connection: only an answer to an outstanding request id is
// believed; an id never sent or a frame that does not parse ends the connection; a late answer is
// dropped; a deadline or a dropped connection fails the request with a line that says so.
import { describe, expect, it, vi } from "vitest";
import { ListenerConnection } from "./listener-connection.ts";

function connection() {
  const sent: Array<{ id: number }> = [];
  const violations: string[] = [];
  const ended: Array<[number, string]> = [];
  const c = new ListenerConnection("north-psap", "a", {
    send: (text) => sent.push(JSON.parse(text) as { id: number }),
    end: (code, reason) => ended.push([code, reason]),
    violation: (p) => violations.push(p),
  });
  return { c, sent, violations, ended };
}
const request = { method: "POST", path: "/v3/incidents", headers: { "service-request-id": "x" }, body: "{}" };
const answer = (id: number, status: number | null = 200) =>
  JSON.stringify({ type: "response", id, status, headers: {}, body: "ok", error: status ? null : "ECONNREFUSED" });

describe("ListenerConnection", () => {
  it("sends a request frame with its deadline and resolves with the answer to its id", async () => {
    const { c, sent } = connection();
    const pending = c.forward(request, 10_000);
    expect(sent).toEqual([{ type: "request", id: 1, ...request, deadlineMs: 10_000 }]);
    expect(c.receive(answer(1, 503))).toBe("ok");
    expect(await pending).toMatchObject({ answer: { id: 1, status: 503, body: "ok" } });
    expect(c.outstanding).toBe(0);
  });

  it("an answer to an id never sent is a violation that ends the connection and fails what is outstanding", async () => {
    const { c, violations } = connection();
    const pending = c.forward(request, 10_000);
    c.receive(answer(7));
    expect(violations).toEqual(["the listener answered request 7, never sent"]);
    expect(await pending).toEqual({
      failed: "listener connection closed: the listener answered request 7, never sent",
    });
    expect(c.open).toBe(false);
    expect(await c.forward(request, 1_000)).toMatchObject({ failed: expect.stringMatching(/closed/) });
  });

  it("a frame that is not JSON, or not a frame, is a violation", () => {
    const first = connection();
    first.c.receive("hello");
    expect(first.violations).toEqual(["the listener sent a frame that is not JSON"]);
    const second = connection();
    second.c.receive(JSON.stringify({ type: "response", id: 1, status: 99, headers: null, body: null, error: null }));
    expect(second.violations[0]).toMatch(/^the listener sent an invalid frame/);
  });

  it("no answer within the deadline fails the request; its late answer is dropped, not a violation", async () => {
    vi.useFakeTimers();
    try {
      const { c, violations } = connection();
      const pending = c.forward(request, 3_000);
      vi.advanceTimersByTime(3_000);
      expect(await pending).toEqual({ failed: "timeout: the listener did not answer within 3000 ms" });
      c.receive(answer(1));
      expect(violations).toEqual([]);
      expect(c.open).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a dropped connection fails every outstanding request; detach is asked for by its own frame", async () => {
    const { c } = connection();
    const a = c.forward(request, 10_000);
    const b = c.forward(request, 10_000);
    expect(c.receive(JSON.stringify({ type: "detach" }))).toBe("detach");
    c.close("listener disconnected");
    expect(await Promise.all([a, b])).toEqual([
      { failed: "listener disconnected" },
      { failed: "listener disconnected" },
    ]);
  });
});
