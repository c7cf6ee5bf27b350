// The verifier's memory of tokens it accepted: a token seen again costs no signature
// verification, and is still refused once it expires or its key leaves the key set.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { createWebhookTokenVerifier, publisherRequirements } from "./verify-webhook-token.ts";

const AGENCY = "0f6c5a52-8d7e-4a53-9a6b-2b0c3c8e1f01";
type Key = Awaited<ReturnType<typeof generateKeyPair>> & { kid: string; jwk: JWK };

let server: http.Server;
let authUrl: string;
/** What the key set serves right now. */
let published: JWK[] = [];
let keyA: Key;
let keyB: Key;

async function newKey(kid: string): Promise<Key> {
  const pair = await generateKeyPair("RS256", { extractable: true });
  return { ...pair, kid, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: "RS256", use: "sig" } };
}

beforeAll(async () => {
  [keyA, keyB] = await Promise.all([newKey("a"), newKey("b")]);
  server = http.createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration") res.end(JSON.stringify({ jwks_uri: `${authUrl}/jwks` }));
    else if (req.url === "/jwks") res.end(JSON.stringify({ keys: published }));
    else res.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => vi.restoreAllMocks());

const NOW_S = 1_800_000_000;
const at = (s: number) => new Date(s * 1000);

function publisherToken(key: Key, expS = NOW_S + 600) {
  return new SignJWT({ client_id: "Publisher", scope: "webhooks.receive" })
    .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: key.kid })
    .setIssuer(authUrl)
    .setSubject("Publisher")
    .setAudience(`urn:service:webhooks:${AGENCY}`)
    .setIssuedAt(NOW_S)
    .setExpirationTime(expS)
    .sign(key.privateKey);
}

describe("webhook token verifier: tokens it accepted before", () => {
  it("accepts a token seen before without verifying its signature again", async () => {
    published = [keyA.jwk];
    const verify = createWebhookTokenVerifier({ authUrl, refetchCooldownMs: 0 });
    const token = await publisherToken(keyA);
    const check = (now: Date) => verify({ authorization: `Bearer ${token}`, now, ...publisherRequirements(AGENCY) });
    const signatureChecks = vi.spyOn(crypto.subtle, "verify");

    expect(await check(at(NOW_S))).toMatchObject({ ok: true, claims: { sub: "Publisher" } });
    expect(signatureChecks).toHaveBeenCalledTimes(1);
    expect(await check(at(NOW_S + 1))).toMatchObject({ ok: true, claims: { sub: "Publisher" } });
    expect(signatureChecks).toHaveBeenCalledTimes(1);
  });

  it("refuses it once it has expired on the caller's clock, and accepts it again if the clock goes back", async () => {
    published = [keyA.jwk];
    const verify = createWebhookTokenVerifier({ authUrl, refetchCooldownMs: 0 });
    const token = await publisherToken(keyA, NOW_S + 60);
    const check = (now: Date) => verify({ authorization: `Bearer ${token}`, now, ...publisherRequirements(AGENCY) });

    expect(await check(at(NOW_S))).toMatchObject({ ok: true });
    // 30 s of tolerance, as for a token never seen.
    expect(await check(at(NOW_S + 60 + 29))).toMatchObject({ ok: true });
    expect(await check(at(NOW_S + 60 + 30))).toEqual({ ok: false, reason: "expired" });
    expect(await check(at(NOW_S))).toMatchObject({ ok: true });
  });

  it("refuses it once its key has left the key set", async () => {
    published = [keyA.jwk, keyB.jwk];
    const verify = createWebhookTokenVerifier({ authUrl, refetchCooldownMs: 0 });
    const token = await publisherToken(keyA);
    const check = (t: string) =>
      verify({ authorization: `Bearer ${t}`, now: at(NOW_S), ...publisherRequirements(AGENCY) });
    expect(await check(token)).toMatchObject({ ok: true });

    // Key a is retired; the next unknown kid makes the verifier read the key set again.
    published = [keyB.jwk];
    const unknown = await newKey("c");
    expect(await check(await publisherToken(unknown))).toMatchObject({ ok: false });
    expect(await check(token)).toEqual({ ok: false, reason: "no published key matches the kid" });
    expect(await check(await publisherToken(keyB))).toMatchObject({ ok: true });
  });

  it("remembers a token per route: accepted for one audience, still refused for another", async () => {
    published = [keyA.jwk];
    const verify = createWebhookTokenVerifier({ authUrl, refetchCooldownMs: 0 });
    const token = await publisherToken(keyA);
    const now = at(NOW_S);
    expect(await verify({ authorization: `Bearer ${token}`, now, ...publisherRequirements(AGENCY) })).toMatchObject({
      ok: true,
    });
    const other = publisherRequirements("7a1d3c7e-0000-4000-8000-000000000001");
    expect(await verify({ authorization: `Bearer ${token}`, now, ...other })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("aud"),
    });
  });
});
