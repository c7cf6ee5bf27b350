// /auth/cli: the workbench's side of `workbench login` (decision 0053; docs/dashboard-access.md).
// Who may call each route:
//   GET  /auth/cli/mode    anyone: {access: "local" | "shared"} (the CLI's first question; an unsigned
//                          /api/trpc call tells as much)
//   GET  /auth/cli         a signed-in member (others are sent to sign-in and come back): the confirm page
//   POST /auth/cli         that member, same-origin only, from the page that holds the session's key
//                          (decision 0071: the cookie alone is not enough): Authorize leaves a two-minute single-use code
//                          for a token of their own role or one below it (never above); Authorize and
//                          Cancel both send the browser to http://127.0.0.1:<port>/callback only
//   POST /auth/cli/token   whoever holds the code and the PKCE verifier (the CLI): the API token, once
//   POST /auth/cli/revoke  whoever holds an API token: revokes that token (`workbench logout`)
// Nothing here is logged: the request logger covers protocol paths only, and codes travel in the query
// of the CLI's own listener and in bodies, tokens in bodies and headers.
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Runtime } from "../../runtime.ts";
import { AppError } from "../../platform/errors.ts";
import { revokeApiTokenByValue } from "../../workbench/access/api-tokens.ts";
import { roleAllows, ZRole } from "../../workbench/access/roles.ts";
import {
  CLI_TOKEN_LIFETIME_DAYS,
  cliCallbackUrl,
  createCliGrant,
  redeemCliGrant,
  ZCliAuthorizeRequest,
  ZCliTokenRequest,
  type TCliAuthorizeRequest,
} from "../../workbench/access/cli-grants.ts";
import { SESSION_KEY_HEADER } from "../../workbench/access/session-key-names.ts";
import { resolveCaller, type CallerUse } from "../../workbench/access/resolve-caller.ts";
import { contentSecurityPolicy, createNonce } from "../content-security-policy.ts";
import { originsOf } from "../identity/require-same-origin.ts";
import { renderTokenError } from "../identity/render-token-error.ts";
import { renderMessagePage } from "./render-auth-pages.ts";
import { renderCliConfirm } from "./render-cli-confirm.ts";

const SMALL = 4 * 1024;
const tooLarge = (c: Context) => c.json({ error: "invalid_request", error_description: "The body is too large." }, 413);

function noStore(c: Context) {
  c.header("cache-control", "no-store");
  c.header("referrer-policy", "same-origin");
}

function invalidLink(c: Context, detail: string) {
  return c.html(
    renderMessagePage({
      title: "Login link not valid",
      message: `${detail.slice(0, 200)} Run \`workbench login\` again.`,
    }),
    400,
  );
}

/** The confirm page's own link, rebuilt from what was validated (the return path of a sign-in on the way). */
const linkOf = (r: TCliAuthorizeRequest) =>
  `/auth/cli?${new URLSearchParams({
    port: String(r.port),
    state: r.state,
    code_challenge: r.code_challenge,
    code_challenge_method: r.code_challenge_method,
    hostname: r.hostname,
  })}`;

/**
 * The confirm form posts here and is redirected to the CLI's loopback callback: Chromium holds a form's
 * redirects to form-action too, so the page allows that one origin (the port the link gave) as well.
 */
function allowFormRedirectToCli(c: Context, env: Runtime["env"], port: number): string {
  const own = originsOf([env.PUBLIC_URL, env.AUTH_URL, env.BASE_URL, env.PORTAL_URL]);
  const nonce = createNonce();
  c.header(
    "content-security-policy",
    contentSecurityPolicy({ formActions: [...own, `http://127.0.0.1:${port}`], nonce }),
  );
  return nonce;
}

export function cliLoginApp(runtime: Runtime, sameOrigin: MiddlewareHandler) {
  const { env } = runtime;
  /** The signed-in member: by the cookie to show the page; by the cookie and the session's key to act. */
  const member = async (c: Context, use: CallerUse, sessionKey?: unknown) => {
    const headers = new Headers({ cookie: c.req.header("cookie") ?? "" });
    if (typeof sessionKey === "string" && sessionKey) headers.set(SESSION_KEY_HEADER, sessionKey);
    const resolution = await resolveCaller(runtime, headers, use);
    if (!("caller" in resolution) || resolution.caller.kind !== "member") return undefined;
    const { memberId, name, role } = resolution.caller;
    return { memberId, username: name, role };
  };
  const noTokenNeeded = (c: Context) =>
    c.html(
      renderMessagePage({
        title: "No token needed",
        message: "This workbench is in local mode: the CLI needs no token.",
      }),
    );
  const app = new Hono();

  app.get("/auth/cli/mode", (c) => {
    noStore(c);
    return c.json({ access: env.ACCESS_MODE });
  });

  app.get("/auth/cli", async function showCliConfirm(c) {
    noStore(c);
    if (env.ACCESS_MODE === "local") return noTokenNeeded(c);
    const parsed = ZCliAuthorizeRequest.safeParse(c.req.query());
    if (!parsed.success) return invalidLink(c, `This link is malformed (${parsed.error.issues[0]!.path.join(".")}).`);
    const session = await member(c, "navigation");
    if (!session) return c.redirect(`/auth/sign-in?next=${encodeURIComponent(linkOf(parsed.data))}`, 302);
    const nonce = allowFormRedirectToCli(c, env, parsed.data.port);
    return c.html(
      renderCliConfirm({
        request: parsed.data,
        member: session.username,
        role: session.role,
        lifetimeDays: CLI_TOKEN_LIFETIME_DAYS,
        nonce,
      }),
    );
  });

  app.post("/auth/cli", bodyLimit({ maxSize: SMALL, onError: tooLarge }), sameOrigin, async function decideCli(c) {
    noStore(c);
    if (env.ACCESS_MODE === "local") return noTokenNeeded(c);
    const form = (await c.req.parseBody()) as Record<string, unknown>;
    const parsed = ZCliAuthorizeRequest.safeParse(form);
    if (!parsed.success) return invalidLink(c, "The form was malformed.");
    const session = await member(c, "data", form.session_key);
    if (!session) return c.redirect(`/auth/sign-in?next=${encodeURIComponent(linkOf(parsed.data))}`, 303);
    const { port, state } = parsed.data;
    if (form.decision !== "authorize") return c.redirect(cliCallbackUrl(port, { state, error: "access_denied" }), 303);
    // The token's role: the member's own or one below it, never above (absent: their own).
    const role = form.role === undefined ? session.role : ZRole.safeParse(form.role).data;
    if (!role || !roleAllows(session.role, role))
      return invalidLink(c, `A token's role is at most yours (${session.role}).`);
    const code = await createCliGrant({
      ...runtime,
      memberId: session.memberId,
      role,
      request: parsed.data,
    });
    return c.redirect(cliCallbackUrl(port, { code, state }), 303);
  });

  app.post("/auth/cli/token", bodyLimit({ maxSize: SMALL, onError: tooLarge }), async function redeemCliCode(c) {
    try {
      noStore(c);
      if (env.ACCESS_MODE === "local")
        throw new AppError("InvalidRequest", "This workbench is in local mode: no token is needed.");
      const body: unknown = await c.req.json().catch(() => undefined);
      const parsed = ZCliTokenRequest.safeParse(body);
      if (!parsed.success) throw new AppError("InvalidRequest", "Send {code, code_verifier} as JSON.");
      const login = await redeemCliGrant({
        ...runtime,
        code: parsed.data.code,
        codeVerifier: parsed.data.code_verifier,
      });
      return c.json({
        token: login.token,
        id: login.id,
        name: login.name,
        role: login.role,
        member: login.member,
        expiresAt: login.expiresAt?.toISOString() ?? null,
      });
    } catch (error) {
      return renderTokenError(c, error, runtime.logger);
    }
  });

  app.post("/auth/cli/revoke", async function revokeOwnToken(c) {
    noStore(c);
    const match = /^Bearer\s+(\S{1,200})\s*$/i.exec(c.req.header("authorization") ?? "");
    if (!match)
      return c.json({ error: "invalid_request", error_description: "Send the token as Authorization: Bearer." }, 400);
    return c.json({ revoked: await revokeApiTokenByValue({ ...runtime, token: match[1]! }) });
  });
  return app;
}
