// Each forgery differs from the valid Publisher token in exactly the property it
// names (so an accepting receiver is missing exactly that check), and the valid
// one verifies with the workbench's own verifier.
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, WorkbenchClock } from "../platform/clock/clock.ts";
import { parseEnv } from "../platform/env.ts";
import { SigningKeyStore } from "../platform/signing-keys.ts";
import { verifyAccessToken } from "../identity/access-token.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { OUT_OF_WINDOW_S, TokenForge } from "./forge-tokens.ts";

const AGENCY = "0b0c5b52-1c0e-4a57-9a57-000000000001";
const env = parseEnv({ NODE_ENV: "test", PUBLIC_URL: "http://localhost:3000" });
let t: TestDatabase;
let keys: SigningKeyStore;
let forge: TokenForge;
const clock = new WorkbenchClock();

beforeAll(async () => {
  t = await createTestDatabase();
  keys = new SigningKeyStore({ db: t.db, clock: new ManualClock(clock.nowMs()) });
  forge = new TokenForge({ keys, clock, env, agencyId: AGENCY });
});
afterAll(async () => {
  await t.drop();
});

const parts = (token: string) => ({ header: decodeProtectedHeader(token), claims: decodeJwt(token) });
const without = (o: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

describe("token forge", () => {
  it("the valid token is the engine's Publisher token and verifies", async () => {
    const token = await forge.publisher();
    const claims = await verifyAccessToken({
      token,
      keys,
      clock,
      issuer: env.AUTH_URL,
      audience: `urn:service:webhooks:${AGENCY}`,
    });
    expect(claims).toMatchObject({
      sub: "Publisher",
      client_id: "Publisher",
      scope: "webhooks.receive",
      iss: "http://localhost:3000",
    });
  });

  it("each forgery changes only what it names", async () => {
    const valid = parts(await forge.sign());
    const base = without(valid.claims, "jti", "iat", "nbf", "exp");
    const check = async (
      token: string | Promise<string>,
      header: Record<string, unknown>,
      claims: Record<string, unknown>,
    ) => {
      const p = parts(await token);
      expect(p.header).toEqual({ ...valid.header, ...header });
      expect(without(p.claims, "jti", "iat", "nbf", "exp")).toEqual({ ...base, ...claims });
      return p;
    };
    await check(forge.sign({ claims: { iss: "http://localhost:3000/" } }), {}, { iss: "http://localhost:3000/" });
    await check(forge.sign({ header: { typ: "JWT" } }), { typ: "JWT" }, {});
    await check(forge.sign({ claims: { aud: forge.legacyAudience() } }), {}, { aud: `urn:service:agency:${AGENCY}` });
    await check(forge.unsigned(), { alg: "none", kid: undefined }, {});
    expect(forge.unsigned().endsWith(".")).toBe(true);
    await check(forge.hmacWithPublicKey(), { alg: "HS256" }, {});
    const unknown = await check(forge.unknownKid(), { kid: expect.stringMatching(/^unknown-/) }, {});
    expect((await keys.jwks()).keys.map((k) => k.kid)).not.toContain(unknown.header.kid);
    const embedded = await check(
      forge.embeddedJwk(),
      { kid: undefined, jwk: expect.objectContaining({ kty: "RSA" }) },
      {},
    );
    expect(embedded.header.jwk).not.toHaveProperty("d");
    const expired = parts(await forge.sign({ claims: { exp: forge.nowS() - OUT_OF_WINDOW_S } }));
    expect(expired.claims.exp).toBeLessThan(forge.nowS() - 600);
    expect(() => parts(forge.unsigned())).not.toThrow();
  });

  it("a tampered token keeps the valid header and signature but not the payload", async () => {
    const [h, p, s] = (await forge.tampered()).split(".");
    expect(decodeJwt(`${h}.${p}.${s}`).scope).toBe("webhooks.receive admin");
    await expect(
      verifyAccessToken({ token: `${h}.${p}.${s}`, keys, clock, issuer: env.AUTH_URL }),
    ).rejects.toMatchObject({ reason: "bad_signature" });
  });

  it("the legacy profile: the engine's PsapConnector token with the route's scope verifies; its forgeries keep that identity", async () => {
    const token = await forge.psapConnector(["psap.incident.position"]);
    const claims = await verifyAccessToken({
      token,
      keys,
      clock,
      issuer: env.AUTH_URL,
      audience: `urn:service:agency:${AGENCY}`,
    });
    expect(claims).toMatchObject({ sub: "PsapConnector", client_id: "PsapConnector", scope: "psap.incident.position" });
    expect(decodeJwt(await forge.psapConnector()).scope).toBe("psap.read");
    const profile = { identity: "PsapConnector", scope: "psap.incident" } as const;
    const legacy = {
      sub: "PsapConnector",
      client_id: "PsapConnector",
      aud: `urn:service:agency:${AGENCY}`,
      scope: "psap.incident",
    };
    for (const forged of [
      await forge.sign({ profile }),
      forge.unsigned(profile),
      await forge.hmacWithPublicKey(profile),
      await forge.unknownKid(profile),
      await forge.embeddedJwk(profile),
    ]) {
      expect(decodeJwt(forged)).toMatchObject(legacy);
    }
    expect(
      decodeJwt(
        await forge.sign({
          profile,
          claims: { aud: forge.otherAgencyLegacyAudience("0b0c5b52-1c0e-4a57-9a57-000000000002") },
        }),
      ).aud,
    ).toBe("urn:service:agency:0b0c5b52-1c0e-4a57-9a57-000000000002");
    const [h, p, s] = (await forge.tampered(profile)).split(".");
    expect(decodeJwt(`${h}.${p}.${s}`)).toMatchObject({ ...legacy, scope: "psap.incident admin" });
    await expect(
      verifyAccessToken({ token: `${h}.${p}.${s}`, keys, clock, issuer: env.AUTH_URL }),
    ).rejects.toMatchObject({ reason: "bad_signature" });
  });
});
