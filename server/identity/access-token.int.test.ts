import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import type { ManualClock } from "../platform/clock/clock.ts";
import type { TestDatabase } from "../testing/test-database.ts";
import { useSigningKeyFixture } from "./testing/signing-key-fixture.ts";
import { AccessTokenError, mintAccessToken, verifyAccessToken } from "./access-token.ts";
import { SigningKeyStore } from "../platform/signing-keys.ts";

const ISS = "http://localhost:3000";
const fixture = useSigningKeyFixture();
let t: TestDatabase, clock: ManualClock, keys: SigningKeyStore;
beforeAll(() => void ({ t, clock, keys } = fixture));

const mint = (over: Partial<Parameters<typeof mintAccessToken>[0]> = {}) =>
  mintAccessToken({
    keys,
    clock,
    issuer: ISS,
    subject: "partner-cad",
    audience: "urn:service:inbound",
    clientId: "partner-cad",
    scope: ["agency.read"],
    lifetimeS: 3600,
    ...over,
  });

async function reason(p: Promise<unknown>) {
  try {
    await p;
    return "accepted";
  } catch (e) {
    return e instanceof AccessTokenError ? e.reason : `unexpected ${(e as Error).message}`;
  }
}

describe("access tokens", () => {
  it("round-trip: RS256, typ at+jwt, kid, the contract claims", async () => {
    const { accessToken, expiresIn } = await mint({
      claims: { agency_context: "0b0c5b52-1c0e-4a57-9a57-000000000001", username: undefined },
    });
    expect(expiresIn).toBe(3600);
    const claims = await verifyAccessToken({
      token: accessToken,
      keys,
      clock,
      issuer: ISS,
      audience: "urn:service:inbound",
    });
    expect(claims).toMatchObject({
      iss: ISS,
      sub: "partner-cad",
      client_id: "partner-cad",
      scope: "agency.read",
      agency_context: "0b0c5b52-1c0e-4a57-9a57-000000000001",
    });
    expect(claims).not.toHaveProperty("username");
    expect(typeof claims.jti).toBe("string");
  });

  it("expiry follows the workbench clock (with 30 s tolerance)", async () => {
    const { accessToken } = await mint({ lifetimeS: 60 });
    clock.advance(60_000 + 29_000);
    expect(await reason(verifyAccessToken({ token: accessToken, keys, clock, issuer: ISS }))).toBe("accepted");
    clock.advance(2_000);
    expect(await reason(verifyAccessToken({ token: accessToken, keys, clock, issuer: ISS }))).toBe("expired");
  });

  it("refuses wrong issuer, audience, alg none, foreign keys, and a plain JWT typ", async () => {
    const { accessToken } = await mint();
    expect(await reason(verifyAccessToken({ token: accessToken, keys, clock, issuer: `${ISS}/` }))).toBe(
      "wrong_issuer",
    );
    expect(
      await reason(verifyAccessToken({ token: accessToken, keys, clock, issuer: ISS, audience: "urn:other" })),
    ).toBe("wrong_audience");
    const none = new UnsecuredJWT({ client_id: "x", scope: "agency.read" })
      .setIssuer(ISS)
      .setSubject("x")
      .setIssuedAt()
      .setExpirationTime("1h")
      .encode();
    expect(await reason(verifyAccessToken({ token: none, keys, clock, issuer: ISS }))).toBe("malformed");
    const foreign = await generateKeyPair("RS256");
    const current = await keys.current();
    const forged = await new SignJWT({ client_id: "x", scope: "agency.read" })
      .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: current.kid, jwk: await exportJWK(foreign.publicKey) })
      .setIssuer(ISS)
      .setSubject("x")
      .setIssuedAt(Math.floor(clock.nowMs() / 1000))
      .setExpirationTime(Math.floor(clock.nowMs() / 1000) + 600)
      .sign(foreign.privateKey);
    expect(await reason(verifyAccessToken({ token: forged, keys, clock, issuer: ISS }))).toBe("bad_signature");
    const plainTyp = await new SignJWT({ client_id: "x", scope: "agency.read" })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: current.kid })
      .setIssuer(ISS)
      .setSubject("x")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(current.privateKey);
    expect(await reason(verifyAccessToken({ token: plainTyp, keys, clock, issuer: ISS }))).toBe("wrong_type");
    expect(await reason(verifyAccessToken({ token: "not.a.jwt", keys, clock, issuer: ISS }))).toBe("malformed");
  });

  it("rotation: new tokens use the new key; old tokens verify until the old key retires", async () => {
    const before = await mint({ lifetimeS: 600 });
    const oldKid = (await keys.current()).kid;
    const rotated = await keys.rotate();
    expect(rotated.previousKid).toBe(oldKid);
    expect((await keys.current()).kid).toBe(rotated.kid);
    expect((await keys.jwks()).keys.map((k) => k.kid)).toEqual(expect.arrayContaining([oldKid, rotated.kid]));
    expect(await reason(verifyAccessToken({ token: before.accessToken, keys, clock, issuer: ISS }))).toBe("accepted");
    // A second store (another process) sees the same keys.
    const other = new SigningKeyStore({ db: t.db, clock });
    expect((await other.current()).kid).toBe(rotated.kid);
    // Past retireAfter the old key leaves the JWKS.
    clock.advance(Date.parse(rotated.previousRetiresAt!) - clock.nowMs() + 1_000);
    const fresh = new SigningKeyStore({ db: t.db, clock });
    expect((await fresh.jwks()).keys.map((k) => k.kid)).toEqual([rotated.kid]);
    // No private material is ever published.
    for (const k of (await fresh.jwks()).keys) expect(k).not.toHaveProperty("d");
  });
});
