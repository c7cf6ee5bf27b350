// /api/health is the Node server's own route: a probe never reaches Next (docs/decisions/0032).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";

let s: TestServer;
const reachedNext: string[] = [];
beforeAll(async () => {
  s = await startTestServer({
    nextHandler: (req, res) => {
      reachedNext.push(req.url ?? "");
      res.writeHead(200, { "content-type": "text/plain" }).end("next");
    },
  });
});
afterAll(async () => {
  await s.close();
});

describe("the workbench's health probe", () => {
  it("is answered by the Node server with the database's state, without Next", async () => {
    const res = await fetch(`${s.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: s.runtime.databaseMode });
    expect((await fetch(`${s.url}/api/health?probe=1`)).status).toBe(200);
    expect(reachedNext).toEqual([]);
    // Every other non-protocol path still goes to Next.
    expect(await (await fetch(`${s.url}/api/healthz`)).text()).toBe("next");
    expect(reachedNext).toEqual(["/api/healthz"]);
  });
});
