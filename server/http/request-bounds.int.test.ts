// Bounded everything on the protocol surfaces: what /receivers reads and stores, the login form's
// body limit, and a receiver cache that unknown keys cannot grow.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import http from "node:http";
import { mintPsapConnectorToken, mintPublisherToken } from "../identity/service-tokens.ts";
import { createReceiverLookup } from "../reference-receiver/receiver-lookup.ts";
import { MAX_STORED_DELIVERY_BYTES } from "./reference-receivers/read-delivery-body.ts";
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

/**
 * The status of a POST the server answers before it has read the body. The server reads on for a
 * moment and then closes the connection (@hono/node-server's bounded drain): on a busy machine
 * that comes while the client still uploads, and fetch then fails the request though its answer
 * had arrived. node:http hands the answer over as it arrives.
 */
function statusOfUnreadPost(url: string, text: string, declared: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(declared ? { "content-length": Buffer.byteLength(text) } : { "transfer-encoding": "chunked" }),
        },
      },
      (res) => {
        res.on("error", () => {}).resume();
        resolve(res.statusCode!);
      },
    );
    // No effect once resolved: closing an upload it answered is the server's right (the socket's
    // own write error included, which it may report after the request let go of it).
    req.on("error", reject).on("socket", (socket) => socket.on("error", reject));
    req.end(text);
  });
}

describe("/receivers/{key}", () => {
  it.each([
    ["declared", true],
    ["chunked", false],
  ] as const)("answers a %s body over 1 MiB without a token 401, keeping none of the body", async (_kind, declared) => {
    const status = await statusOfUnreadPost(
      `${s.url}/receivers/north-psap/v3/incidents`,
      JSON.stringify({ pad: twoMiB }),
      declared,
    );
    expect(status).toBe(401);
    // The refusal is recorded, as every refused token is; its body is not.
    const record = await s.runtime.db.receiverRecord.findFirstOrThrow({
      where: { integrationKey: "north-psap" },
      orderBy: { id: "desc" },
    });
    expect([record.outcome, record.body]).toEqual(["rejected-token", null]);
  });

  // Delivery rule 4: a retry cannot fix size, so a 413 would only stall the incident's lane for
  // the hour of expiry. The delivery is recorded by its size (never its content), flagged, and
  // answered 200; the v3 and legacy routes alike.
  it.each([
    ["declared", "v3", (t: string) => ({ body: t })],
    ["chunked", "v3", chunked],
    ["declared", "v2", (t: string) => ({ body: t })],
  ] as const)(
    "records a %s %s delivery over 1 MiB by its size, flagged, and answers 200",
    async (_kind, contract, body) => {
      const agencyId = "0b0c5b52-1c0e-4a57-9a57-000000000001";
      // v3 routes take the Publisher credential, v1/v2 routes PsapConnector with the route's scope.
      const token =
        contract === "v3"
          ? await mintPublisherToken(s.runtime, agencyId)
          : await mintPsapConnectorToken(s.runtime, agencyId, ["psap.incident"]);
      const incidentId = randomUUID();
      const path = contract === "v3" ? `/v3/incidents/${incidentId}/caller/track` : `/v2/incident`;
      const serviceRequestId = randomUUID();
      const text = JSON.stringify({ pad: twoMiB });
      {
        const res = await fetch(`${s.url}/receivers/north-psap${path}`, {
          method: contract === "v3" ? "PUT" : "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${token.accessToken}`,
            "service-request-id": serviceRequestId,
            "service-request-timestamp": s.runtime.clock.now().toISOString(),
          },
          ...body(text),
        });
        expect(res.status).toBe(200);
        const record = await s.runtime.db.receiverRecord.findFirstOrThrow({
          where: { integrationKey: "north-psap", path },
          orderBy: { id: "desc" },
        });
        expect(record.body).toEqual({
          tooLarge: { bytes: Buffer.byteLength(text), limitBytes: MAX_STORED_DELIVERY_BYTES },
        });
        expect(record.anomalies).toContain(`too-large:${Buffer.byteLength(text)} bytes (stored up to 1048576)`);
        expect(record.status).toBe(200);
        if (contract === "v3")
          expect([record.incidentId, record.serviceRequestId]).toEqual([incidentId, serviceRequestId]);
      }
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
