// The same bearer token gets the same verdict on both protected surfaces: /v1 and the identity
// server's Account API. A token that does not verify, or is not meant for the resource (its `aud`
// lacks it), is not a valid token there: 401 AuthenticationRequired with RFC 6750's
// `error="invalid_token"`. A valid token for the resource without the operation's scope is 403.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintAccessToken } from "../../identity/access-token.ts";
import { accountApiResource, inboundApiResource } from "../../identity/resources.ts";
import { ManualClock } from "../../platform/clock/clock.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { AGENCY } from "../../../prisma/seed.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

type Surface = "inbound" | "account";
const SCOPE: Record<Surface, string> = { inbound: "agency.read", account: "identity.user.signin" };

function mint(options: { audience: string | string[]; scope: string[]; issuer?: string; clock?: ManualClock }) {
  return mintAccessToken({
    keys: s.runtime.keys,
    clock: options.clock ?? s.runtime.clock,
    issuer: options.issuer ?? s.runtime.env.AUTH_URL,
    subject: "partner-cad",
    audience: options.audience,
    clientId: "partner-cad",
    scope: options.scope,
    lifetimeS: 3600,
    claims: { agency_context: AGENCY.northPsap },
  }).then((t) => t.accessToken);
}

async function call(surface: Surface, authorization: string | undefined) {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  const res =
    surface === "inbound"
      ? await fetch(`${s.url}/v1/agency/info`, { headers })
      : await fetch(`${s.url}/Account/GetUserSigninToken`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ agencyContext: AGENCY.northPsap, username: "dispatcher.north" }),
        });
  const body = (await res.json()) as { code?: string };
  return { status: res.status, code: body.code, challenge: res.headers.get("www-authenticate") };
}

const audienceOf = (surface: Surface) =>
  surface === "inbound" ? inboundApiResource(s.runtime.env) : accountApiResource(s.runtime.env);
const otherSurface = (surface: Surface): Surface => (surface === "inbound" ? "account" : "inbound");

describe.each<Surface>(["inbound", "account"])("bearer verdicts on %s", (surface) => {
  it("401 invalid_token for a token meant for the other resource only", async () => {
    const other = otherSurface(surface);
    const token = await mint({ audience: audienceOf(other), scope: [SCOPE.inbound, SCOPE.account] });
    expect(await call(surface, `Bearer ${token}`)).toEqual({
      status: 401,
      code: "AuthenticationRequired",
      challenge: expect.stringMatching(/^Bearer .*error="invalid_token"/),
    });
    // …and the same token is valid where it is meant to be.
    expect((await call(other, `Bearer ${token}`)).status).toBe(200);
  });

  it("401 invalid_token for an expired token, a foreign issuer and a broken signature", async () => {
    const aud = audienceOf(surface);
    const scope = [SCOPE[surface]];
    const expired = await mint({ audience: aud, scope, clock: new ManualClock(s.runtime.clock.nowMs() - 7_200_000) });
    const foreign = await mint({ audience: aud, scope, issuer: "https://elsewhere.example" });
    const good = await mint({ audience: aud, scope });
    for (const token of [expired, foreign, `${good.slice(0, -4)}AAAA`, "not.a.jwt"]) {
      const r = await call(surface, `Bearer ${token}`);
      expect([r.status, r.code]).toEqual([401, "AuthenticationRequired"]);
      expect(r.challenge).toMatch(/error="invalid_token"/);
    }
    expect((await call(surface, `Bearer ${good}`)).status).toBe(200);
  });

  it("401 with a bare challenge, no error code, when no token is presented", async () => {
    const r = await call(surface, undefined);
    expect([r.status, r.code]).toEqual([401, "AuthenticationRequired"]);
    expect(r.challenge).toMatch(/^Bearer/);
    expect(r.challenge).not.toMatch(/error=/);
  });

  it("403 AuthorizationDenied for a valid token for this resource without the operation's scope", async () => {
    const token = await mint({ audience: audienceOf(surface), scope: ["incident.read"] });
    expect(await call(surface, `Bearer ${token}`)).toMatchObject({ status: 403, code: "AuthorizationDenied" });
  });
});
