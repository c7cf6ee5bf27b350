import { beforeAll, describe, expect, it } from "vitest";
import type { ManualClock } from "../platform/clock/clock.ts";
import { useSigningKeyFixture } from "./testing/signing-key-fixture.ts";
import { AccessTokenError, mintAccessToken, verifyAccessToken, type VerifyOptions } from "./access-token.ts";
import type { SigningKeyStore } from "../platform/signing-keys.ts";
import { createVerifiedTokenCache, withinTokenWindow } from "./verified-token-cache.ts";

const ISS = "http://localhost:3000";
const AUD = "http://localhost:3000/v1";
const fixture = useSigningKeyFixture();
let clock: ManualClock, keys: SigningKeyStore;
beforeAll(() => void ({ clock, keys } = fixture));

function cache() {
  const full: string[] = [];
  const verify = createVerifiedTokenCache({
    keys,
    clock,
    issuer: ISS,
    audience: AUD,
    verifyFully: (o: VerifyOptions) => (full.push(o.token), verifyAccessToken(o)),
  });
  return { verify, full };
}
const mint = async (lifetimeS = 3600) =>
  (
    await mintAccessToken({
      keys,
      clock,
      issuer: ISS,
      subject: "partner-cad",
      audience: AUD,
      clientId: "partner-cad",
      scope: ["agency.read"],
      lifetimeS,
    })
  ).accessToken;

describe("verified token cache", () => {
  it("verifies a token once, then answers its repeats from memory with the same claims", async () => {
    const { verify, full } = cache();
    const token = await mint();
    const first = await verify(token);
    expect(await verify(token)).toBe(first);
    expect(full).toHaveLength(1);
  });

  it("re-checks the time window on every hit: after a clock jump past exp the token is refused as expired", async () => {
    const { verify, full } = cache();
    const token = await mint(60);
    await verify(token);
    clock.advance(2 * 60_000);
    const refused = await verify(token).then(
      () => "accepted",
      (e: unknown) => (e instanceof AccessTokenError ? e.reason : String(e)),
    );
    expect(refused).toBe("expired");
    expect(full).toHaveLength(2);
  });

  it("drops hits when the key store reloads (rotation, reset): the token is verified again", async () => {
    const { verify, full } = cache();
    const token = await mint();
    await verify(token);
    await keys.rotate();
    await expect(verify(token)).resolves.toMatchObject({ client_id: "partner-cad" });
    expect(full).toHaveLength(2);
  });

  it("never remembers a refused token", async () => {
    const { verify, full } = cache();
    const forged = (await mint()).slice(0, -4) + "AAAA";
    await expect(verify(forged)).rejects.toBeInstanceOf(AccessTokenError);
    await expect(verify(forged)).rejects.toBeInstanceOf(AccessTokenError);
    expect(full).toHaveLength(2);
  });
});

describe("withinTokenWindow", () => {
  const now = new Date(Date.UTC(2026, 10, 22, 12));
  const t0 = now.getTime() / 1000;
  it("accepts inside the window and within the 30 s tolerance, refuses outside", () => {
    expect(withinTokenWindow({ exp: t0 + 1 }, now)).toBe(true);
    expect(withinTokenWindow({ exp: t0 - 29 }, now)).toBe(true);
    expect(withinTokenWindow({ exp: t0 - 30 }, now)).toBe(false);
    expect(withinTokenWindow({ exp: t0 + 60, nbf: t0 + 30 }, now)).toBe(true);
    expect(withinTokenWindow({ exp: t0 + 60, nbf: t0 + 31 }, now)).toBe(false);
  });
});
