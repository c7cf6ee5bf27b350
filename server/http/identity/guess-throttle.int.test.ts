// Black-box: guessing slowed down (docs/decisions/0051-guessing-slowed-down.md) on the token
// endpoint and on the dashboard's sign-in form of a shared workbench; an admin can clear a wait.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { callTrpc, signInToDashboard } from "../../testing/dashboard-access-client.ts";
import { advanceClockOffset } from "../../platform/clock/persisted-clock.ts";
import { authenticateMember } from "../../workbench/access/members.ts";
import { purgeGuessThrottle } from "../../identity/guess-throttle.ts";
import { CAD, postToken } from "./token-test-helpers.ts";

const rows = (s: TestServer) =>
  s.runtime.db.guessThrottle.findMany({ select: { kind: true, key: true, failures: true }, orderBy: { key: "asc" } });

describe("the token endpoint", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  const cc = (secret: string, clientId = CAD.client_id) =>
    postToken(s.url, {
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: secret,
      scope: "agency.read",
    });

  it("answers 429 with Retry-After after five free failures, refuses even the right secret during the wait", async () => {
    for (let i = 0; i < 6; i++) expect((await cc(`wrong-${i}`)).status).toBe(401);
    const refused = await cc("wrong-6");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.body).toEqual({
      error: "too_many_attempts",
      error_description: "Too many failed attempts: try again in 1 s.",
    });
    expect((await cc(CAD.client_secret)).status).toBe(429);
    // Another client from this address is not held up: a source has twenty free failures.
    expect((await cc("partner-readonly-secret", "partner-readonly")).status).toBe(200);
    // Refusals are not counted: six failures per key.
    expect(await rows(s)).toEqual([
      { kind: "client", key: "source:127.0.0.1", failures: 6 },
      { kind: "client", key: "subject:partner-cad", failures: 6 },
    ]);
  });

  it("lets the right secret through once the wait is over, and that clears the client's count", async () => {
    await advanceClockOffset(s.runtime.db, s.runtime.clock, 1_000);
    const ok = await cc(CAD.client_secret);
    expect(ok.status).toBe(200);
    expect((await rows(s)).map((r) => r.key)).toEqual(["source:127.0.0.1"]);
  });

  it("makes a source that guesses across many clients wait after twenty, and forgets it a quiet window later", async () => {
    for (let i = 6; i < 21; i++) expect((await cc("wrong", `guessed-client-${i}`)).status).toBe(401);
    const refused = await cc(CAD.client_secret);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    await advanceClockOffset(s.runtime.db, s.runtime.clock, 15 * 60_000 + 1);
    expect(await purgeGuessThrottle(s.runtime)).toBe(16);
    expect(await rows(s)).toEqual([]);
    expect((await cc(CAD.client_secret)).status).toBe(200);
  });

  it("honours a wait another process wrote once its second has passed", async () => {
    expect((await cc(CAD.client_secret)).status).toBe(200);
    // Another process on this database makes partner-cad wait (written here as it would write it).
    const until = new Date(s.runtime.clock.nowMs() + 60_000);
    await s.runtime.db.guessThrottle.create({
      data: { kind: "client", key: "subject:partner-cad", failures: 9, lastFailureAt: until, blockedUntil: until },
    });
    await advanceClockOffset(s.runtime.db, s.runtime.clock, 1_000);
    const refused = await cc(CAD.client_secret);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(55);
    await advanceClockOffset(s.runtime.db, s.runtime.clock, 60_000);
    expect((await cc(CAD.client_secret)).status).toBe(200);
    expect(await rows(s)).toEqual([]);
  });
});

describe("the dashboard's sign-in form on a shared workbench", () => {
  const ADMIN_PASSWORD = "admin-password-for-tests";
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startTestServer({
      dashboard: true,
      env: { WORKBENCH_ACCESS: "shared", WORKBENCH_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    admin = (await signInToDashboard(s.url, "admin", ADMIN_PASSWORD)).sessionCookie!;
    const created = await callTrpc(s.url, "access.members.create", {
      mutation: true,
      input: { username: "Casey", role: "viewer", password: "casey-password-1" },
      headers: { cookie: admin },
    });
    expect(created.status).toBe(200);
  });
  afterAll(async () => {
    await s.close();
  });

  it("names the wait on the form after five free failures, and refuses the right password meanwhile", async () => {
    for (let i = 0; i < 6; i++)
      expect((await signInToDashboard(s.url, "casey", `wrong-password-${i}`)).status).toBe(401);
    const refused = await signInToDashboard(s.url, "Casey", "wrong-password-6");
    expect(refused.status).toBe(429);
    expect(refused.body).toContain("Too many attempts: try again in 1 s.");
    expect((await signInToDashboard(s.url, "casey", "casey-password-1")).status).toBe(429);
  });

  it("lets the member in after the wait, which clears the name's count", async () => {
    await advanceClockOffset(s.runtime.db, s.runtime.clock, 1_000);
    const signedIn = await signInToDashboard(s.url, "casey", "casey-password-1");
    expect(signedIn.status).toBe(302);
    expect(signedIn.sessionCookie).toMatch(/^wb_session=/);
    expect((await rows(s)).map((r) => r.key)).toEqual(["source:127.0.0.1"]);
  });

  it("lets an admin clear a member's wait, so a sign-in from elsewhere works at once", async () => {
    await advanceClockOffset(s.runtime.db, s.runtime.clock, 15 * 60_000 + 1);
    const elsewhere = (password: string) =>
      authenticateMember({ ...s.runtime, username: "casey", password, source: "203.0.113.7" });
    for (let i = 0; i < 6; i++) await expect(elsewhere(`wrong-password-${i}`)).resolves.toBeUndefined();
    await expect(elsewhere("casey-password-1")).rejects.toMatchObject({ code: "TooManyAttempts", retryAfterS: 1 });
    const bad = await callTrpc(s.url, "access.clearGuessThrottle", {
      mutation: true,
      input: { kind: "member", subject: "x".repeat(201) },
      headers: { cookie: admin },
    });
    expect(bad.status).toBe(400);
    const cleared = await callTrpc(s.url, "access.clearGuessThrottle", {
      mutation: true,
      input: { kind: "member", subject: "CASEY" },
      headers: { cookie: admin },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.data).toEqual({ cleared: true });
    // From another address than the guesser's, the member signs in without waiting.
    await expect(
      authenticateMember({ ...s.runtime, username: "casey", password: "casey-password-1", source: "198.51.100.2" }),
    ).resolves.toMatchObject({ username: "Casey" });
  });
});
