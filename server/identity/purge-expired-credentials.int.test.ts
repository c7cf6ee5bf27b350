import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../platform/clock/clock.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { createPortalSession } from "./portal-sessions.ts";
import { purgeExpiredCredentials } from "./purge-expired-credentials.ts";
import { createRefreshToken, rotateRefreshToken } from "./refresh-tokens.ts";
import { issueSigninToken } from "./signin-tokens.ts";
import { createCliGrant } from "../workbench/access/cli-grants.ts";
import { createMember } from "../workbench/access/members.ts";

const NORTH_USER = "0b0c5b52-1c0e-4a57-9a57-100000000001";
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe("purgeExpiredCredentials", () => {
  it("deletes expired rows an hour after expiry and keeps live ones and live refresh families", async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 8));
    const deps = { db: t.db, clock };
    await issueSigninToken({
      ...deps,
      userId: NORTH_USER,
      clientId: "partner-cad",
      agencyId: "0b0c5b52-1c0e-4a57-9a57-000000000001",
    });
    await createPortalSession({ ...deps, userId: NORTH_USER, method: "password" });
    const rt = await createRefreshToken({ ...deps, clientId: "portal-spa", userId: NORTH_USER, scopes: ["openid"] });
    clock.advance(20 * 60_000);
    expect(await purgeExpiredCredentials(deps)).toEqual({
      signinTokens: 0,
      authorizationCodes: 0,
      portalSessions: 0,
      refreshTokens: 0,
      guessThrottle: 0,
      cliGrants: 0,
    });
    clock.advance(60 * 60_000);
    expect((await purgeExpiredCredentials(deps)).signinTokens).toBe(1);
    // Rotation keeps the family alive: the spent token stays for reuse detection.
    clock.advance(5 * 3600_000); // 6h20m: rotate; the new token lives until 14h20m
    await rotateRefreshToken({ ...deps, refreshToken: rt, clientId: "portal-spa" });
    clock.advance(3 * 3600_000); // 9h20m: the first token expired 1h20m ago, but its family lives
    expect(await purgeExpiredCredentials(deps)).toMatchObject({ portalSessions: 0, refreshTokens: 0 });
    clock.advance(6 * 3600_000 + 60_000); // 15h21m: the session (12 h) and the whole family are past expiry + 1 h
    expect(await purgeExpiredCredentials(deps)).toMatchObject({ portalSessions: 1, refreshTokens: 2 });
  });

  it("deletes a `workbench login` code an hour after its two minutes", async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 8));
    const deps = { db: t.db, clock };
    const member = await createMember({
      ...deps,
      input: { username: "carla", role: "viewer", password: "carla-password-1" },
    });
    const request = {
      port: 50_000,
      state: "s".repeat(43),
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256" as const,
      hostname: "laptop",
    };
    await createCliGrant({ ...deps, memberId: member.id, role: "viewer", request });
    clock.advance(60 * 60_000);
    expect((await purgeExpiredCredentials(deps)).cliGrants).toBe(0);
    clock.advance(3 * 60_000); // 1h03m: past its 2 minutes + 1 h
    expect((await purgeExpiredCredentials(deps)).cliGrants).toBe(1);
  });
});
