import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { afterAnswer } from "./after-answer.ts";

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose handler waits `holdMs` (a delivery being recorded), then calls afterAnswer and answers. */
function serve(holdMs: number, events: string[]): Promise<number> {
  server = http.createServer((_req, res) => {
    setTimeout(() => {
      afterAnswer(res, () => events.push("work"));
      res.end("{}", () => events.push("answered"));
    }, holdMs);
  });
  return new Promise((resolve) =>
    server!.listen(0, "127.0.0.1", () => resolve((server!.address() as AddressInfo).port)),
  );
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe("afterAnswer", () => {
  it("runs the work once the answer has gone out", async () => {
    const events: string[] = [];
    const port = await serve(0, events);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    await until(() => events.includes("work"));
    expect(events).toEqual(["answered", "work"]);
  });

  it("still runs it when the sender hung up before the answer (the response closed already)", async () => {
    const events: string[] = [];
    const port = await serve(100, events);
    const request = http.request({ port, host: "127.0.0.1", method: "POST" });
    request.on("error", () => {});
    request.end("{}");
    setTimeout(() => request.destroy(), 20);
    await until(() => events.includes("work"));
    expect(events).toContain("work");
  });

  it("runs it on the next turn when there is no response object (an in-process call)", async () => {
    const events: string[] = [];
    afterAnswer(undefined, () => events.push("work"));
    expect(events).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(["work"]);
  });
});
