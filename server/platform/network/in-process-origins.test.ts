// The in-process request: what a Hono app reads of a fetch Request, over a string body.
import { describe, expect, it } from "vitest";
import { Hono } from "hono";
import { InProcessConnection, InProcessRequest } from "./in-process-origins.ts";

const request = (connection = new InProcessConnection()) =>
  new InProcessRequest(
    "http://wb.test/receivers/north-psap/v3/incidents?x=1",
    "POST",
    { "Service-Request-Id": "abc", "content-type": "application/json" },
    '{"label":"x"}',
    connection,
  );

describe("InProcessRequest", () => {
  it("serves a Hono route: path, params, headers by any case, the body once", async () => {
    const app = new Hono();
    app.post("/receivers/:key/v3/*", async (c) =>
      c.json({
        key: c.req.param("key"),
        path: c.req.path,
        id: c.req.header("service-request-id"),
        headers: c.req.header(),
        body: await c.req.json(),
        again: await c.req.text(), // Hono caches the body: a second read does not reach the request
      }),
    );
    const res = await app.fetch(request() as unknown as Request);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      key: "north-psap",
      path: "/receivers/north-psap/v3/incidents",
      id: "abc",
      headers: { "service-request-id": "abc", "content-type": "application/json" },
      body: { label: "x" },
      again: '{"label":"x"}',
    });
  });

  it("reads its body once, like a fetch Request, and aborts its signal when the connection closes", async () => {
    const connection = new InProcessConnection();
    const r = request(connection);
    expect(await r.text()).toBe('{"label":"x"}');
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toThrow(TypeError);
    expect(r.signal.aborted).toBe(false);
    connection.destroy();
    expect(r.signal.aborted).toBe(true);
  });
});
