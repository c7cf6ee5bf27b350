// Black-box: guessing slowed down (docs/decisions/0051-guessing-slowed-down.md, 0070) on the token
// endpoint and on the dashboard's sign-in form of a shared workbench: by (address, account), by
// account and by address; a right secret from an address its account signed in from before gets
// through the account's and the address's waits; an admin sees what is slowed down and clears it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { callTrpc, signInToDashboard } from "../../testing/dashboard-access-client.ts";
import { advanceClockOffset } from "../../platform/clock/persisted-clock.ts";
import { authenticateMember } from "../../workbench/access/members.ts";
import { authenticateConfidentialClient } from "../../identity/authenticate-client.ts";
import { createClient } from "../../identity/manage-clients.ts";
import { purgeGuessThrottle } from "../../identity/guess-throttle.ts";
import { CAD, NORTH, postToken } from "./token-test-helpers.ts";

const rows = (s: TestServer) =>
  s.runtime.db.guessThrottle.findMany({ select: { kind: true, key: true, failures: true }, orderBy: { key: "asc" } });
const keys = async (s: TestServer) => (await rows(s)).map((r) => r.key);
const later = (s: TestServer, ms: number) => advanceClockOffset(s.runtime.db, s.runtime.clock, ms);

describe("the token endpoint", () => {
  let s: TestServer;
  let fresh: { clientId: string; clientSecret: string };
  beforeAll(async () => {
    s = await startTestServer();
    // A client that never signs in from this address until the test says so.
    fresh = await createClient({
      ...s.runtime,
      input: {
        clientId: "fresh-cad",
        displayName: "Fresh",
        scopes: ["agency.read"],
        agencyIds: [NORTH],
        accessTokenLifetimeS: 3600,
      },
    });
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

  it("answers 429 with Retry-After after five free failures of a pair, refusing even the right secret", async () => {
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
    // Another client from this address is not held up: an address has twenty free failures.
    expect((await cc("partner-readonly-secret", "partner-readonly")).status).toBe(200);
    // Refusals are not counted: six failures per key.
    expect(await rows(s)).toEqual([
      { kind: "client", key: "account:partner-cad", failures: 6 },
      { kind: "client", key: "pair:127.0.0.1 partner-cad", failures: 6 },
      { kind: "client", key: "source:127.0.0.1", failures: 6 },
    ]);
  });

  it("lets the right secret through once the wait is over: its pair starts afresh, and is trusted", async () => {
    await later(s, 1_000);
    expect((await cc(CAD.client_secret)).status).toBe(200);
    expect(await keys(s)).toEqual(["account:partner-cad", "source:127.0.0.1"]);
    const trust = await s.runtime.db.guessTrust.findMany({ select: { key: true }, orderBy: { key: "asc" } });
    expect(trust.map((t) => t.key)).toEqual(["127.0.0.1 partner-cad", "127.0.0.1 partner-readonly"]);
  });

  it("makes an address that guesses many names wait after twenty, except for a client that signed in from it", async () => {
    for (let i = 6; i < 21; i++) expect((await cc("wrong", `guessed-client-${i}`)).status).toBe(401);
    // partner-cad signed in from here before: the address's wait does not hold it up.
    expect((await cc(CAD.client_secret)).status).toBe(200);
    // fresh-cad never did: it waits with the guesser, right secret or not.
    const refused = await cc(fresh.clientSecret, fresh.clientId);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
  });

  it("holds an account guessed from many addresses for every address but those it signed in from", async () => {
    const from = (source: string, secret: string) =>
      authenticateConfidentialClient({ ...s.runtime, clientId: "partner-readonly", clientSecret: secret, source });
    // Eleven addresses, one wrong secret each: no pair and no address is past its free failures, the account is.
    for (let i = 1; i <= 11; i++)
      await expect(from(`203.0.113.${i}`, "wrong")).rejects.toMatchObject({ code: "InvalidClient" });
    await expect(from("198.51.100.9", "partner-readonly-secret")).rejects.toMatchObject({ code: "TooManyAttempts" });
    await expect(from("127.0.0.1", "partner-readonly-secret")).resolves.toMatchObject({ id: "partner-readonly" });
  });

  it("forgets a window later; trust lasts longer", async () => {
    await later(s, 15 * 60_000 + 1);
    expect(await purgeGuessThrottle(s.runtime)).toBeGreaterThanOrEqual(16);
    expect(await rows(s)).toEqual([]);
    expect(await s.runtime.db.guessTrust.count()).toBe(2);
    expect((await cc(fresh.clientSecret, fresh.clientId)).status).toBe(200);
  });

  it("honours a wait another process wrote once its second has passed", async () => {
    expect((await cc(CAD.client_secret)).status).toBe(200);
    // Another process on this database makes partner-cad wait from here (written here as it would write it).
    const until = new Date(s.runtime.clock.nowMs() + 60_000);
    await s.runtime.db.guessThrottle.create({
      data: {
        kind: "client",
        key: "pair:127.0.0.1 partner-cad",
        subject: "partner-cad",
        source: "127.0.0.1",
        failures: 9,
        lastFailureAt: until,
        blockedUntil: until,
      },
    });
    await later(s, 1_000);
    const refused = await cc(CAD.client_secret);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(55);
    await later(s, 60_000);
    expect((await cc(CAD.client_secret)).status).toBe(200);
    expect(await rows(s)).toEqual([]);
  });
});

describe("the dashboard's sign-in form on a shared workbench", () => {
  const ADMIN_PASSWORD = "admin-password-for-tests";
  let s: TestServer;
  let admin: Record<string, string>;
  const asAdmin = () => admin;
  beforeAll(async () => {
    s = await startTestServer({
      dashboard: true,
      env: { WORKBENCH_ACCESS: "shared", WORKBENCH_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    admin = (await signInToDashboard(s.url, "admin", ADMIN_PASSWORD)).credentials!;
    for (const [username, role] of [
      ["Casey", "viewer"],
      ["Robin", "integrator"],
    ] as const) {
      const created = await callTrpc(s.url, "access.members.create", {
        mutation: true,
        input: { username, role, password: `${username.toLowerCase()}-password-1` },
        headers: asAdmin(),
      });
      expect(created.status).toBe(200);
    }
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

  it("lets the member in after the wait, which clears the pair's count", async () => {
    await later(s, 1_000);
    const signedIn = await signInToDashboard(s.url, "casey", "casey-password-1");
    expect(signedIn.status).toBe(200);
    expect(signedIn.sessionCookie).toMatch(/^wb_session=/);
    expect(await keys(s)).toEqual(["account:casey", "source:127.0.0.1"]);
  });

  it("lets an admin clear a member's wait, so a sign-in from elsewhere works at once", async () => {
    await later(s, 15 * 60_000 + 1);
    const elsewhere = (password: string) =>
      authenticateMember({ ...s.runtime, username: "casey", password, source: "203.0.113.7" });
    for (let i = 0; i < 6; i++) await expect(elsewhere(`wrong-password-${i}`)).resolves.toBeUndefined();
    await expect(elsewhere("casey-password-1")).rejects.toMatchObject({ code: "TooManyAttempts", retryAfterS: 1 });
    const bad = await callTrpc(s.url, "access.clearGuessThrottle", {
      mutation: true,
      input: { kind: "member", subject: "x".repeat(201) },
      headers: asAdmin(),
    });
    expect(bad.status).toBe(400);
    const cleared = await callTrpc(s.url, "access.clearGuessThrottle", {
      mutation: true,
      input: { kind: "member", subject: "CASEY" },
      headers: asAdmin(),
    });
    expect(cleared.status).toBe(200);
    expect(cleared.data).toEqual({ cleared: true });
    await expect(elsewhere("casey-password-1")).resolves.toMatchObject({ username: "Casey" });
  });

  it("an address guessing throw-away names, kept waiting, does not keep out an admin who signs in from it", async () => {
    await later(s, 15 * 60_000 + 1);
    await purgeGuessThrottle(s.runtime);
    // The admin signed in from 127.0.0.1 in beforeAll. The guesser shares that address (a NAT, a proxy).
    for (let i = 0; i < 25; i++) {
      const answer = await signInToDashboard(s.url, `nobody-${i}`, "guess-password-1");
      expect([401, 429]).toContain(answer.status);
    }
    // Kept up: one more wrong guess as each wait ends, so the wait doubles (2 s, 4 s, … past a minute).
    const addressWait = async () => {
      const list = (await callTrpc(s.url, "access.guessThrottles", { headers: asAdmin() })).data as Array<{
        scope: string;
        source: string | null;
        waitS: number;
      }>;
      return list.find((t) => t.scope === "source" && t.source === "127.0.0.1")?.waitS ?? 0;
    };
    for (let i = 0; i < 7; i++) {
      await later(s, (await addressWait()) * 1_000);
      expect((await signInToDashboard(s.url, `nobody-late-${i}`, "guess-password-1")).status).toBe(401);
    }
    expect(await addressWait()).toBeGreaterThan(60);
    // The admin's right password from the same address: in, at once.
    const signedIn = await signInToDashboard(s.url, "admin", ADMIN_PASSWORD);
    expect(signedIn.status).toBe(200);
    // A member who never signed in from here waits with the guesser, until an admin clears the address.
    expect((await signInToDashboard(s.url, "robin", "robin-password-1")).status).toBe(429);
    const cleared = await callTrpc(s.url, "access.clearGuessThrottle", {
      mutation: true,
      input: { kind: "member", source: "127.0.0.1" },
      headers: signedIn.credentials!,
    });
    expect(cleared.data).toEqual({ cleared: true });
    expect((await signInToDashboard(s.url, "robin", "robin-password-1")).status).toBe(200);
  });

  it("shows the list and the clearing to admins only", async () => {
    const viewer = (await signInToDashboard(s.url, "casey", "casey-password-1")).credentials!;
    expect((await callTrpc(s.url, "access.guessThrottles", { headers: viewer })).error?.code).toBe("FORBIDDEN");
    const clear = await callTrpc(s.url, "access.clearGuessThrottle", {
      mutation: true,
      input: { kind: "member", source: "127.0.0.1" },
      headers: viewer,
    });
    expect(clear.error?.code).toBe("FORBIDDEN");
  });
});
