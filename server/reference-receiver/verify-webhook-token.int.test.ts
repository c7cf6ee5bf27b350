// The verifier's key handling against a live identity server: keys come over
// HTTP from the discovery document's jwks_uri, are cached, are refetched when an
// unknown kid appears (a rotation), and that refetch is rate limited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair, SignJWT } from "jose";
import { mintAccessToken } from "../identity/access-token.ts";
import {
  mintPsapConnectorToken,
  mintPublisherToken,
  PSAP_CONNECTOR,
  psapConnectorAudience,
  PUBLISHER,
  publisherAudience,
  WEBHOOKS_RECEIVE_SCOPE,
} from "../identity/service-tokens.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { NORTH_PSAP } from "./testing/snapshot-fixture.ts";
import {
  createWebhookTokenVerifier,
  psapConnectorTokenVerifier,
  publisherTokenVerifier,
} from "./verify-webhook-token.ts";

const createPublisherTokenVerifier = (options: Parameters<typeof createWebhookTokenVerifier>[0]) =>
  publisherTokenVerifier(createWebhookTokenVerifier(options));

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const jwksFetches = () =>
  s.logs.records().filter((r) => r.msg === "request" && r.path === "/.well-known/jwks.json").length;
const check = (verify: ReturnType<typeof createPublisherTokenVerifier>, token: string) =>
  verify({ authorization: `Bearer ${token}`, agencyId: NORTH_PSAP, now: s.runtime.clock.now() });

describe("Publisher token verifier", () => {
  it("fetches the JWKS once, caches it, and refetches after a key rotation (unknown kid)", async () => {
    const verify = createPublisherTokenVerifier({ authUrl: s.url, refetchCooldownMs: 0 });
    const before = jwksFetches();
    const first = await mintPublisherToken(s.runtime, NORTH_PSAP);
    expect(await check(verify, first.accessToken)).toMatchObject({
      ok: true,
      claims: { sub: "Publisher", client_id: "Publisher" },
    });
    expect(await check(verify, first.accessToken)).toMatchObject({ ok: true });
    expect(jwksFetches() - before).toBe(1);

    await s.runtime.keys.rotate();
    const afterRotation = await mintPublisherToken(s.runtime, NORTH_PSAP);
    expect(await check(verify, afterRotation.accessToken)).toMatchObject({ ok: true });
    expect(jwksFetches() - before).toBe(2);
    // The superseded key stays published until its tokens expire: the old token still verifies.
    expect(await check(verify, first.accessToken)).toMatchObject({ ok: true });
  });

  it("rate limits refetches caused by unknown kids", async () => {
    const verify = createPublisherTokenVerifier({ authUrl: s.url, refetchCooldownMs: 60_000 });
    expect(await check(verify, (await mintPublisherToken(s.runtime, NORTH_PSAP)).accessToken)).toMatchObject({
      ok: true,
    });
    const before = jwksFetches();
    const foreign = await generateKeyPair("RS256");
    const nowS = Math.floor(s.runtime.clock.nowMs() / 1000);
    for (let i = 0; i < 5; i++) {
      const forged = await new SignJWT({ client_id: "Publisher", scope: "webhooks.receive" })
        .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: `made-up-${i}` })
        .setIssuer(s.url)
        .setSubject("Publisher")
        .setAudience(`urn:service:webhooks:${NORTH_PSAP}`)
        .setIssuedAt(nowS)
        .setExpirationTime(nowS + 600)
        .sign(foreign.privateKey);
      expect(await check(verify, forged)).toMatchObject({ ok: false });
    }
    expect(jwksFetches() - before).toBe(0);
  });

  it("serves both contracts from one key cache; neither credential passes for the other contract", async () => {
    const verifyToken = createWebhookTokenVerifier({ authUrl: s.url });
    const publisher = publisherTokenVerifier(verifyToken);
    const psap = psapConnectorTokenVerifier(verifyToken);
    const before = jwksFetches();
    const now = s.runtime.clock.now();
    const v3 = `Bearer ${(await mintPublisherToken(s.runtime, NORTH_PSAP)).accessToken}`;
    const legacy = `Bearer ${(await mintPsapConnectorToken(s.runtime, NORTH_PSAP, ["psap.incident"])).accessToken}`;

    expect(await publisher({ authorization: v3, agencyId: NORTH_PSAP, now })).toMatchObject({ ok: true });
    expect(await psap({ authorization: legacy, agencyId: NORTH_PSAP, scope: "psap.incident", now })).toMatchObject({
      ok: true,
      claims: { sub: "PsapConnector" },
    });
    expect(jwksFetches() - before).toBe(1);
    // Neither credential passes for the other contract, nor for a scope it lacks.
    expect(await publisher({ authorization: legacy, agencyId: NORTH_PSAP, now })).toMatchObject({ ok: false });
    expect(await psap({ authorization: v3, agencyId: NORTH_PSAP, scope: "psap.incident", now })).toMatchObject({
      ok: false,
    });
    expect(
      await psap({ authorization: legacy, agencyId: NORTH_PSAP, scope: "psap.incident.close", now }),
    ).toMatchObject({ ok: false, reason: "scope must contain psap.incident.close" });
  });

  it("each contract checks its own audience: the right identity and scope with the other's aud is refused for aud", async () => {
    const verifyToken = createWebhookTokenVerifier({ authUrl: s.url });
    const publisher = publisherTokenVerifier(verifyToken);
    const psap = psapConnectorTokenVerifier(verifyToken);
    const now = s.runtime.clock.now();
    const mint = async (identity: string, audience: string, scope: string) =>
      `Bearer ${
        (
          await mintAccessToken({
            keys: s.runtime.keys,
            clock: s.runtime.clock,
            issuer: s.runtime.env.AUTH_URL,
            subject: identity,
            clientId: identity,
            audience,
            scope: [scope],
            lifetimeS: 3600,
          })
        ).accessToken
      }`;
    // Publisher's identity and scope, PsapConnector's audience; and the other way round.
    const v3WithLegacyAud = await mint(PUBLISHER, psapConnectorAudience(NORTH_PSAP), WEBHOOKS_RECEIVE_SCOPE);
    const legacyWithV3Aud = await mint(PSAP_CONNECTOR, publisherAudience(NORTH_PSAP), "psap.incident");
    expect(await publisher({ authorization: v3WithLegacyAud, agencyId: NORTH_PSAP, now })).toEqual({
      ok: false,
      reason: expect.stringMatching(/^claim aud /),
    });
    expect(await psap({ authorization: legacyWithV3Aud, agencyId: NORTH_PSAP, scope: "psap.incident", now })).toEqual({
      ok: false,
      reason: expect.stringMatching(/^claim aud /),
    });
    // The same identities with their own audience pass, with the audience in their claims.
    const v3 = await mint(PUBLISHER, publisherAudience(NORTH_PSAP), WEBHOOKS_RECEIVE_SCOPE);
    const legacy = await mint(PSAP_CONNECTOR, psapConnectorAudience(NORTH_PSAP), "psap.incident");
    expect(await publisher({ authorization: v3, agencyId: NORTH_PSAP, now })).toMatchObject({
      ok: true,
      claims: { aud: `urn:service:webhooks:${NORTH_PSAP}` },
    });
    expect(await psap({ authorization: legacy, agencyId: NORTH_PSAP, scope: "psap.incident", now })).toMatchObject({
      ok: true,
      claims: { aud: `urn:service:agency:${NORTH_PSAP}` },
    });
  });
});
