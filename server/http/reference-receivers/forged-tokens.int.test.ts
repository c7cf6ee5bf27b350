// The forged-token table: every way a token can be wrong, each answered 401 by
// the receiver and recorded as refused (platform-interface.md, "Webhook receiver
// token validation"). A genuine Publisher token is the control: it passes.
import { createHmac } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintPsapConnectorToken } from "../../identity/service-tokens.ts";
import { makeSnapshot, NORTH_PSAP } from "../../reference-receiver/testing/snapshot-fixture.ts";
import { receiverClient } from "../../reference-receiver/testing/deliver.ts";
import { whenReceiverProcessingIdle } from "../../reference-receiver/process-deliveries.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";

let s: TestServer;
let north: ReturnType<typeof receiverClient>;
const reasons: string[] = [];
let foreign: Awaited<ReturnType<typeof generateKeyPair>>;
beforeAll(async () => {
  s = await startTestServer();
  north = receiverClient(s, "north-psap", NORTH_PSAP);
  foreign = await generateKeyPair("RS256", { extractable: true });
});
afterAll(async () => {
  if (process.env.SHOW_REASONS) console.log(reasons.join("\n"));
  await whenReceiverProcessingIdle();
  await s.close();
});

const nowS = () => Math.floor(s.runtime.clock.nowMs() / 1000);
const genuineClaims = (): JWTPayload => ({
  iss: s.url,
  sub: "Publisher",
  client_id: "Publisher",
  aud: `urn:service:webhooks:${NORTH_PSAP}`,
  scope: "webhooks.receive",
  iat: nowS(),
  nbf: nowS(),
  exp: nowS() + 600,
  jti: "forged",
});

/** Signs claims with the identity server's real current key unless told otherwise. */
async function sign(
  options: {
    claims?: Partial<JWTPayload>;
    omit?: string[];
    header?: Record<string, unknown>;
    key?: "real" | "foreign";
  } = {},
) {
  const real = await s.runtime.keys.current();
  const claims: JWTPayload = { ...genuineClaims(), ...options.claims };
  for (const k of options.omit ?? []) delete claims[k];
  const header = { alg: "RS256", typ: "at+jwt", kid: real.kid, ...options.header };
  return new SignJWT(claims)
    .setProtectedHeader(header)
    .sign(options.key === "foreign" ? foreign.privateKey : real.privateKey);
}

function hs256(secret: string) {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const input = `${b64({ alg: "HS256", typ: "at+jwt" })}.${b64(genuineClaims())}`;
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
}

const FORGED: Array<[string, () => Promise<string | null>]> = [
  ["no Authorization header", async () => null],
  ["not a JWT", async () => "abc.def.ghi"],
  ["alg none", async () => new UnsecuredJWT(genuineClaims()).encode()],
  [
    "HS256 keyed with the published JWKS (alg confusion)",
    async () => hs256(JSON.stringify(await s.runtime.keys.jwks())),
  ],
  [
    "embedded jwk header naming a foreign key",
    async () => sign({ key: "foreign", header: { jwk: await exportJWK(foreign.publicKey) } }),
  ],
  ["jku header pointing elsewhere", async () => sign({ header: { jku: "https://attacker.example/jwks.json" } })],
  ["x5u header", async () => sign({ header: { x5u: "https://attacker.example/cert.pem" } })],
  ["foreign key under the real kid", async () => sign({ key: "foreign" })],
  ["unknown kid", async () => sign({ key: "foreign", header: { kid: "not-a-published-kid" } })],
  [
    "payload swapped under a genuine signature",
    async () => {
      const [h, , sig] = (await north.token()).split(".");
      return `${h}.${Buffer.from(JSON.stringify({ ...genuineClaims(), scope: "webhooks.receive admin" })).toString("base64url")}.${sig}`;
    },
  ],
  ["issuer with a trailing slash", async () => sign({ claims: { iss: `${s.url}/` } })],
  ["typ JWT instead of at+jwt", async () => sign({ header: { typ: "JWT" } })],
  ["no typ", async () => sign({ header: { typ: undefined } })],
  [
    "audience of another agency",
    async () => sign({ claims: { aud: "urn:service:webhooks:0b0c5b52-1c0e-4a57-9a57-000000000002" } }),
  ],
  [
    "audience with an uppercase agency id",
    async () => sign({ claims: { aud: `urn:service:webhooks:${NORTH_PSAP.toUpperCase()}` } }),
  ],
  [
    "legacy PsapConnector token",
    async () => (await mintPsapConnectorToken(s.runtime, NORTH_PSAP, ["psap.incident"])).accessToken,
  ],
  ["sub not Publisher", async () => sign({ claims: { sub: "partner-cad" } })],
  ["client_id not Publisher", async () => sign({ claims: { client_id: "PsapConnector" } })],
  ["scope without webhooks.receive", async () => sign({ claims: { scope: "webhooks.read" } })],
  ["no scope claim", async () => sign({ omit: ["scope"] })],
  [
    "expired on the workbench clock",
    async () => sign({ claims: { iat: nowS() - 7200, nbf: nowS() - 7200, exp: nowS() - 3600 } }),
  ],
  ["not valid before a future nbf", async () => sign({ claims: { nbf: nowS() + 3600 } })],
  ["no exp", async () => sign({ omit: ["exp"] })],
];

describe("forged tokens", () => {
  it("the control: a genuine Publisher token is accepted", async () => {
    expect(
      (await north.send("POST", "/v3/incidents", { incident: makeSnapshot() }, { token: await sign() })).status,
    ).toBe(200);
  });

  it.each(FORGED)("refuses %s with 401 and records it", async (name, forge) => {
    const requestId = `forged-${name}`;
    const token = await forge();
    const res = await north.send(
      "PATCH",
      `/v3/incidents/${makeSnapshot().id}/label`,
      { label: "forged" },
      { token, requestId },
    );
    expect(res.status).toBe(401);
    const [record] = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: "north-psap", serviceRequestId: requestId },
    });
    expect(record).toMatchObject({ outcome: "rejected-token", status: 401, body: null });
    expect(record!.detail).toBeTruthy();
    reasons.push(`${name}: ${record!.detail}`);
    // The token itself is never stored or logged.
    if (token) {
      expect(JSON.stringify(record, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain(token);
      expect(s.logs.text).not.toContain(token);
    }
  });

  it("has at least 15 forged tokens in the table", () => {
    expect(FORGED.length).toBeGreaterThanOrEqual(15);
  });
});
