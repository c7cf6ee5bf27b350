// The in-process request: what a Hono app reads of a fetch Request, over a string body.
import { beforeAll, describe, expect, it } from "vitest";
import { Hono } from "hono";
import { getRequestListener } from "@hono/node-server";
import { InProcessConnection, InProcessRequest, responseBytes } from "./in-process-origins.ts";

/** fetch's own Response, before @hono/node-server replaces the global one. */
const FetchResponse = globalThis.Response;

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

describe("responseBytes", () => {
  // As in the server: once @hono/node-server's listener exists, a Hono answer is its lightweight Response.
  beforeAll(() => void getRequestListener(() => new Response(null)));
  const app = new Hono()
    .get("/json", (c) => c.json({ received: true }, 202, { "x-receiver": "north" }))
    .get("/bytes", (c) => c.body(new TextEncoder().encode("héllo").subarray(1), 200))
    .get("/empty", (c) => c.body(null, 204))
    .get("/stream", (c) => c.body(new Blob(["streamed"]).stream()));
  const answer = (path: string) => app.request(path);
  /** Whether the answer is still the record it was built as (not yet read as a fetch Response). */
  const unread = (res: Response) => Object.getOwnPropertySymbols(res).some((s) => s.description === "cache");

  it("takes a string, bytes or no body as the handler gave it, without building a fetch Response", async () => {
    const json = await answer("/json");
    expect(unread(json)).toBe(true);
    expect((await responseBytes(json)).toString()).toBe('{"received":true}');
    expect(unread(json)).toBe(true);
    expect(json.status).toBe(202);
    expect(Object.fromEntries(json.headers)).toEqual({ "content-type": "application/json", "x-receiver": "north" });

    const bytes = await answer("/bytes");
    expect((await responseBytes(bytes)).toString()).toBe("éllo"); // a view from the second byte
    expect(unread(bytes)).toBe(true);

    const empty = await answer("/empty");
    expect((await responseBytes(empty)).length).toBe(0);
    expect(unread(empty)).toBe(true);
    expect(empty.status).toBe(204);
  });

  it("reads any other body as a fetch Response: a stream, or fetch's own Response", async () => {
    const stream = await answer("/stream");
    expect((await responseBytes(stream)).toString()).toBe("streamed");
    expect(unread(stream)).toBe(false);
    const own = new FetchResponse("from fetch", { status: 201 });
    expect((await responseBytes(own)).toString()).toBe("from fetch");
    expect(own.bodyUsed).toBe(true);
  });
});
