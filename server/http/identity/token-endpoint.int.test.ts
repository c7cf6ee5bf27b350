// Black-box: POST /connect/token, client_credentials (platform-interface.md,
// "Token request", Authentication rules 1-4, "Token endpoint errors").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { verifyAccessToken } from "../../identity/access-token.ts";
import { CAD, claimsOf, EMS, NORTH, postToken, SOUTH } from "./token-test-helpers.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const cc = (fields: Record<string, string | string[]>) =>
  postToken(s.url, { grant_type: "client_credentials", ...CAD, ...fields });

describe("client_credentials: success", () => {
  it("issues an RFC 9068 JWT with the contract claims; sub is the client; expires_in from the client", async () => {
    const r = await cc({ scope: "agency.read call.report" });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "agency.read call.report" });
    const { header, claims } = claimsOf(r.body.access_token as string);
    expect(header).toMatchObject({ alg: "RS256", typ: "at+jwt" });
    expect(typeof header.kid).toBe("string");
    expect(claims).toMatchObject({
      iss: s.url,
      sub: "partner-cad",
      client_id: "partner-cad",
      scope: "agency.read call.report",
      aud: [`${s.url}/v1`],
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(typeof claims.jti).toBe("string");
    expect(claims).not.toHaveProperty("agency_context");
    await expect(
      verifyAccessToken({
        token: r.body.access_token as string,
        keys: s.runtime.keys,
        clock: s.runtime.clock,
        issuer: s.url,
      }),
    ).resolves.toBeTruthy();
  });

  it("expires_in follows the client's configured lifetime", async () => {
    await s.runtime.db.client.update({ where: { id: "partner-readonly" }, data: { accessTokenLifetimeS: 600 } });
    const r = await postToken(s.url, {
      grant_type: "client_credentials",
      client_id: "partner-readonly",
      client_secret: "partner-readonly-secret",
      scope: "agency.read",
    });
    expect(r.body.expires_in).toBe(600);
    const { claims } = claimsOf(r.body.access_token as string);
    expect(claims.exp! - claims.iat!).toBe(600);
  });

  it("agency_context → claim agency_context; psap_id is its deprecated alias", async () => {
    for (const field of ["agency_context", "psap_id"]) {
      const r = await cc({ scope: "agency.read", [field]: NORTH });
      expect(r.status).toBe(200);
      expect(claimsOf(r.body.access_token as string).claims.agency_context).toBe(NORTH);
    }
  });

  it("default aud is every resource the granted scopes belong to; `resource` narrows it", async () => {
    const both = await cc({ scope: "agency.read identity.user.signin" });
    expect(claimsOf(both.body.access_token as string).claims.aud).toEqual([`${s.url}/v1`, `${s.url}/Account`]);
    const narrowed = await cc({ scope: "agency.read identity.user.signin", resource: `${s.url}/Account` });
    expect(claimsOf(narrowed.body.access_token as string).claims.aud).toEqual([`${s.url}/Account`]);
    const twice = await cc({
      scope: "agency.read identity.user.signin",
      resource: [`${s.url}/v1`, `${s.url}/Account`],
    });
    expect(claimsOf(twice.body.access_token as string).claims.aud).toEqual([`${s.url}/v1`, `${s.url}/Account`]);
  });
});

describe("user context (Authentication rule 4)", () => {
  it("sub is the user; claims client_id, agency_context, username, name, email, role", async () => {
    const r = await cc({
      scope: "username.required incident.create",
      agency_context: NORTH,
      username: "DISPATCHER.north",
    });
    expect(r.status).toBe(200);
    expect(claimsOf(r.body.access_token as string).claims).toMatchObject({
      sub: "0b0c5b52-1c0e-4a57-9a57-100000000001",
      client_id: "partner-cad",
      agency_context: NORTH,
      username: "dispatcher.north",
      name: "Nora North",
      email: "dispatcher.north@example.test",
      role: "Dispatcher",
    });
  });

  it.each([
    [
      "username without username.required",
      { scope: "incident.create", agency_context: NORTH, username: "dispatcher.north" },
      "invalid_request",
    ],
    [
      "username.required without username",
      { scope: "username.required incident.create", agency_context: NORTH },
      "invalid_request",
    ],
    [
      "username without agency_context",
      { scope: "username.required incident.create", username: "dispatcher.north" },
      "invalid_request",
    ],
    [
      "a user of another agency",
      { scope: "username.required incident.create", agency_context: EMS, username: "dispatcher.north" },
      "access_denied",
    ],
    [
      "an unknown user",
      { scope: "username.required incident.create", agency_context: NORTH, username: "nobody" },
      "access_denied",
    ],
    [
      "a user who is not allowed (locked.user)",
      { scope: "username.required incident.create", agency_context: NORTH, username: "locked.user" },
      "access_denied",
    ],
    [
      "a name with pattern characters (they match only themselves)",
      { scope: "username.required incident.create", agency_context: NORTH, username: "dispatcher_nort%" },
      "access_denied",
    ],
    [
      "an ambiguous name",
      { scope: "username.required incident.create", agency_context: NORTH, username: "j.smith" },
      "access_denied",
    ],
    [
      "username.required alone (no business scope; the client holds every scope asked for)",
      { scope: "username.required", agency_context: NORTH, username: "dispatcher.north" },
      "invalid_request",
    ],
    [
      "username.required not assigned to the client",
      {
        client_id: "partner-readonly",
        client_secret: "partner-readonly-secret",
        scope: "username.required agency.read",
        agency_context: NORTH,
        username: "dispatcher.north",
      },
      "invalid_scope",
    ],
  ])("%s → %s", async (_name, fields, error) => {
    const r = await cc(fields);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(error);
    expect(typeof r.body.error_description).toBe("string");
  });

  it("a user not assigned to the client is access_denied", async () => {
    await s.runtime.db.userClient.delete({
      where: { userId_clientId: { userId: "0b0c5b52-1c0e-4a57-9a57-100000000002", clientId: "partner-cad" } },
    });
    const r = await cc({ scope: "username.required incident.create", agency_context: EMS, username: "dispatcher.ems" });
    expect(r.body.error).toBe("access_denied");
  });
});

describe("the token error table: every row", () => {
  it.each([
    ["invalid_client", 401, { client_secret: "wrong" }],
    ["invalid_client", 401, { client_id: "nobody" }],
    ["invalid_client", 401, { client_id: "portal-spa", client_secret: "x" }],
    ["invalid_scope", 400, { scope: "agency.read webhooks.receive" }],
    ["invalid_target", 400, { scope: "agency.read", resource: "http://elsewhere.example/v1" }],
    ["invalid_target", 400, { scope: "agency.read", resource: `${"ORIGIN"}/Account` }],
    ["ValidationFailed", 400, { scope: "agency.read", agency_context: "not-a-uuid" }],
    ["ValidationFailed", 400, { scope: "agency.read", agency_context: NORTH, psap_id: NORTH }],
    ["invalid_request", 400, { scope: "" }],
    ["invalid_request", 400, { scope: "agency.read", username: "dispatcher.north" }],
    ["invalid_request", 400, { grant_type: "" }],
    ["PSAP ID invalid", 400, { scope: "agency.read", psap_id: "north-psap" }],
    ["PSAP not allowed", 400, { scope: "agency.read", agency_context: SOUTH }],
    ["PSAP not allowed", 400, { scope: "agency.read", psap_id: SOUTH }],
    ["PSAP not allowed", 400, { scope: "agency.read", agency_context: "11111111-2222-4333-8444-555555555555" }],
    ["access_denied", 400, { scope: "username.required incident.create", agency_context: NORTH, username: "nobody" }],
    ["unsupported_grant_type", 400, { grant_type: "password" }],
  ])("%s (%i) for %j", async (error, status, fields) => {
    const resolved = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.replace("ORIGIN", s.url)]));
    const r = await cc({ scope: "agency.read", ...resolved });
    expect(r.status).toBe(status);
    expect(r.body.error).toBe(error);
    expect(typeof r.body.error_description).toBe("string");
    expect(r.body).not.toHaveProperty("access_token");
    // client_secret_post: no HTTP authentication scheme applies, so no challenge (RFC 6749 5.2).
    if (status === 401) expect(r.headers.get("www-authenticate")).toBeNull();
  });

  it("a JSON body is refused with an OAuth error", async () => {
    const res = await fetch(`${s.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", ...CAD, scope: "agency.read" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("a repeated parameter is invalid_request", async () => {
    const r = await cc({ scope: ["agency.read", "call.report"] });
    expect(r.body.error).toBe("invalid_request");
  });

  it("missing client_secret is invalid_request; the secret is never echoed", async () => {
    const r = await postToken(s.url, {
      grant_type: "client_credentials",
      client_id: "partner-cad",
      scope: "agency.read",
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid_request");
    const wrong = await cc({ client_secret: "partner-cad-secret-typo" });
    expect(JSON.stringify(wrong.body)).not.toContain("partner-cad-secret-typo");
  });
});

describe("names taken from the request are own keys only", () => {
  it.each(["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__"])(
    "grant_type=%s is unsupported_grant_type",
    async (grant) => {
      const r = await cc({ grant_type: grant });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: "unsupported_grant_type" });
      expect(typeof r.body.error_description).toBe("string");
    },
  );

  it("fields named like Object.prototype's members are ignored, not inherited", async () => {
    const r = await cc({ scope: "agency.read", __proto__: "x", constructor: "y", toString: "z" });
    expect(r.status).toBe(200);
  });
});

describe("client authentication challenge", () => {
  it("HTTP Basic is invalid_client (401) with a Basic challenge, not Bearer", async () => {
    const res = await fetch(`${s.url}/connect/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from("partner-cad:partner-cad-secret").toString("base64")}`,
      },
      body: "grant_type=client_credentials&scope=agency.read",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect(await res.json()).toMatchObject({ error: "invalid_client" });
  });

  it("a wrong client_secret in the form is 401 without any challenge", async () => {
    const r = await cc({ scope: "agency.read", client_secret: "wrong" });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBeNull();
  });
});

describe("request size", () => {
  it("an oversized body is refused with an OAuth error before it is read", async () => {
    const r = await cc({ scope: "agency.read", padding: "x".repeat(20_000) });
    expect(r.status).toBe(413);
    expect(r.body.error).toBe("invalid_request");
  });
});
