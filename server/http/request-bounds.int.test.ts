// Bounded everything on the protocol surfaces (issue 20, point 5): body limits
// on /receivers and the login form, and a receiver cache that unknown keys cannot grow.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReceiverLookup } from "../receiver/receiver-lookup.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const twoMiB = "x".repeat(2 * 1024 * 1024);
const chunked = (text: string) => ({ body: new Blob([text]).stream(), duplex: "half" }) as unknown as RequestInit;

describe("/receivers/{key}", () => {
  it.each([
    ["declared", (t: string) => ({ body: t })],
    ["chunked", chunked],
  ] as const)(
    "refuses a %s body over 1 MiB with 413 in the receiver's error format, recording nothing",
    async (_kind, body) => {
      const before = await s.runtime.db.receiverRecord.count();
      const res = await fetch(`${s.url}/receivers/north-psap/v3/incidents`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        ...body(JSON.stringify({ pad: twoMiB })),
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({
        error: "request_too_large",
        error_description: expect.stringContaining("1048576"),
      });
      expect(await s.runtime.db.receiverRecord.count()).toBe(before);
    },
  );

  it("a receiver configured after a miss answers at once (unknown keys are not remembered)", async () => {
    expect((await fetch(`${s.url}/receivers/late-psap/health`)).status).toBe(404);
    const { agencyId } = await s.runtime.db.integration.findUniqueOrThrow({ where: { key: "north-psap" } });
    await s.runtime.db.integration.create({
      data: {
        key: "late-psap",
        agencyId,
        receiverUrl: "/receivers/late-psap",
        insecureDev: true,
        createdAt: s.runtime.clock.now(),
      },
    });
    expect((await fetch(`${s.url}/receivers/late-psap/health`)).status).toBe(200);
  });
});

describe("the receiver lookup cache", () => {
  it("remembers no unknown key and at most maxEntries known ones", async () => {
    const lookup = createReceiverLookup({ db: s.runtime.db, maxEntries: 2 });
    for (let i = 0; i < 50; i++) expect(await lookup.get(`nobody-${i}`)).toBeNull();
    expect(lookup.size).toBe(0);
    for (const key of ["north-psap", "central-ems", "fire-rescue"]) expect(await lookup.get(key)).not.toBeNull();
    expect(lookup.size).toBe(2);
    lookup.close();
  });
});

describe("POST /connect/authorize", () => {
  it.each([
    ["declared", (t: string) => ({ body: t })],
    ["chunked", chunked],
  ] as const)(
    "refuses a %s login form over 16 KiB with 413 and the error page, signing nobody in",
    async (_kind, body) => {
      const form = `client_id=portal-spa&username=dispatcher.north&password=workbench&pad=${"x".repeat(20_000)}`;
      const res = await fetch(`${s.url}/connect/authorize`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        ...body(form),
      });
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await res.text()).toContain("too large");
      expect(res.headers.get("set-cookie")).toBeNull();
    },
  );

  it("reads a field named __proto__ or toString as a field, not a prototype member", async () => {
    const res = await fetch(`${s.url}/connect/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "__proto__=x&toString=y&constructor=z&client_id=toString",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Unknown client");
  });
});
