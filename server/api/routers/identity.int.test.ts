// The identity router (Admin page, token inspector, `workbench keys rotate`),
// checked against the token endpoint over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../root.ts";
import { createTRPCContext } from "../trpc.ts";
import { setRuntime } from "../../runtime.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { accessToken, NORTH, postToken } from "../../http/identity/token-test-helpers.ts";

let s: TestServer;
let caller: ReturnType<typeof createCaller>;
beforeAll(async () => {
  s = await startTestServer();
  setRuntime(s.runtime);
  caller = createCaller(await createTRPCContext({ headers: new Headers() }));
});
afterAll(async () => {
  setRuntime(undefined);
  await s.close();
});

describe("identity router", () => {
  it("creates a client whose secret is shown once and works; rotating it retires the old secret", async () => {
    const created = await caller.identity.clients.create({
      clientId: "acme-cad",
      displayName: "Acme CAD",
      scopes: ["agency.read"],
      agencyIds: [NORTH],
    });
    expect(created.clientSecret.length).toBeGreaterThan(30);
    const listed = (await caller.identity.clients.list()).find((c) => c.clientId === "acme-cad")!;
    expect(listed).toMatchObject({ scopes: ["agency.read"], agencies: [{ id: NORTH, displayName: "North PSAP" }] });
    expect(JSON.stringify(await caller.identity.clients.list())).not.toContain(created.clientSecret);
    const ask = (secret: string) =>
      postToken(s.url, {
        grant_type: "client_credentials",
        client_id: "acme-cad",
        client_secret: secret,
        scope: "agency.read",
        agency_context: NORTH,
      });
    expect((await ask(created.clientSecret)).status).toBe(200);
    const rotated = await caller.identity.clients.rotateSecret({ clientId: "acme-cad" });
    expect((await ask(created.clientSecret)).status).toBe(401);
    expect((await ask(rotated.clientSecret)).status).toBe(200);
  });

  it("refuses a duplicate client id and a secret for the public client", async () => {
    await expect(
      caller.identity.clients.create({
        clientId: "partner-cad",
        displayName: "x",
        scopes: ["agency.read"],
        agencyIds: [],
      }),
    ).rejects.toThrow(/exists/);
    await expect(caller.identity.clients.rotateSecret({ clientId: "portal-spa" })).rejects.toThrow(/public client/);
  });

  it("rotates keys: the list shows the new current key and the previous one still published", async () => {
    const before = await caller.identity.keys.list();
    const rotated = await caller.identity.keys.rotate();
    const after = await caller.identity.keys.list();
    expect(after.find((k) => k.kid === rotated.kid)?.state).toBe("current");
    expect(after.find((k) => k.kid === rotated.previousKid)?.state).toBe("published");
    expect(after.length).toBe(before.length + 1);
  });

  it("inspects a token: header, claims, verification against the JWKS, expiry on the workbench clock", async () => {
    const token = await accessToken(s.url, { scope: "agency.read", agency_context: NORTH });
    const good = await caller.identity.tokens.inspect({ token: `Bearer ${token}` });
    expect(good).toMatchObject({
      decoded: true,
      header: { typ: "at+jwt", alg: "RS256" },
      claims: { client_id: "partner-cad", agency_context: NORTH },
      verification: { ok: true },
    });
    if (good.decoded) expect(good.expiresInS).toBeGreaterThan(3500);
    const tampered = `${token.slice(0, -4)}AAAA`;
    expect(await caller.identity.tokens.inspect({ token: tampered })).toMatchObject({
      decoded: true,
      verification: { ok: false },
    });
    expect(await caller.identity.tokens.inspect({ token: "hello" })).toMatchObject({ decoded: false });
  });
});
