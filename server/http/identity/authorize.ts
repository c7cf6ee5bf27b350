// GET/POST {auth_url}/connect/authorize: the authorization_code grant's front
// channel for configured interactive clients (the seeded portal-spa). PKCE is
// mandatory and S256 only. A browser that already has a portal session gets its
// code at once; otherwise the portal login form (username + dev password) signs
// it in, creating the same portal session LoginUserByToken creates.
//
// Errors about the client or redirect_uri are shown, never redirected (RFC 6749
// 4.1.2.1: an unverified redirect_uri must not receive anything); the rest go back
// to the registered redirect_uri as error=… with the state.
import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Runtime } from "../../runtime.ts";
import { createAuthorizationCode } from "../../identity/authorization-codes.ts";
import {
  createPortalSession,
  findPortalSession,
  PORTAL_SESSION_COOKIE,
  sessionCookieOptions,
} from "../../identity/portal-sessions.ts";
import { isValidCodeChallenge } from "../../identity/pkce.ts";
import { parseScopeList } from "../../identity/token-request.schema.ts";
import { verifyDevPassword } from "../../identity/verify-dev-password.ts";
import { findUsersByName } from "../../identity/resolve-user-context.ts";
import { applicationOrigins, isSecureOrigin } from "./account.ts";
import { limitRequestBody } from "../limit-request-body.ts";
import { originsOf, requireSameOrigin } from "./require-same-origin.ts";
import { contentSecurityPolicy } from "../content-security-policy.ts";
import { DASHBOARD_CLIENT_ID } from "../../identity/dashboard-client.ts";
import { DEV_PASSWORD_REFUSED, devCredentialsAllowed } from "../../identity/dev-credentials.ts";
import { authenticateMember } from "../../workbench/access/members.ts";
import { isTooManyAttempts } from "../../identity/guess-throttle.ts";
import { remoteAddress } from "../remote-address.ts";
import { renderAuthorizeError, renderLoginForm, type AuthorizeParams } from "./render-login-form.ts";
import { findUnsafeText } from "../../platform/json-input.ts";

type Checked =
  | { params: AuthorizeParams; clientName: string; scopes: string[] }
  | { refuse: string }
  | { redirectError: { uri: string; error: string; description: string; state: string } };

async function checkAuthorizeRequest(runtime: Runtime, input: Record<string, string | undefined>): Promise<Checked> {
  // Shown, never redirected: the redirect_uri itself may be the bad value.
  const unsafe = findUnsafeText(input);
  if (unsafe) return { refuse: `invalid_request: the parameter ${unsafe.field.slice(0, 64)} ${unsafe.message}.` };
  const clientId = input.client_id ?? "";
  const client = clientId ? await runtime.db.client.findUnique({ where: { id: clientId } }) : null;
  if (!client || !client.grantTypes.includes("authorization_code"))
    return { refuse: "Unknown client, or the client is not configured for interactive sign-in." };
  const redirectUri = input.redirect_uri ?? "";
  // Registered paths (the seed's /portal/callback) resolve against {portal_url} (the dashboard's own client:
  // against the workbench's public URL); comparison is exact (RFC 9700 2.1).
  const base = client.id === DASHBOARD_CLIENT_ID ? runtime.env.PUBLIC_URL : runtime.env.PORTAL_URL;
  const registered = client.redirectUris.map((u) => (u.startsWith("/") ? `${base}${u}` : u));
  if (!registered.includes(redirectUri)) return { refuse: "redirect_uri is not registered for this client." };
  const state = input.state ?? "";
  const fail = (error: string, description: string) => ({
    redirectError: { uri: redirectUri, error, description, state },
  });
  if (input.response_type !== "code") return fail("unsupported_response_type", "response_type must be code.");
  if (!input.code_challenge)
    return fail("invalid_request", "PKCE is mandatory: send code_challenge with code_challenge_method=S256.");
  if (input.code_challenge_method !== "S256")
    return fail("invalid_request", "code_challenge_method must be S256 (plain is not accepted).");
  if (!isValidCodeChallenge(input.code_challenge))
    return fail("invalid_request", "code_challenge must be a base64url SHA-256 (43 characters).");
  const scopes = parseScopeList(input.scope).length ? parseScopeList(input.scope) : client.scopes;
  if (scopes.some((s) => !client.scopes.includes(s)))
    return fail("invalid_scope", "The client is not assigned every requested scope.");
  return {
    clientName: client.displayName,
    scopes,
    params: {
      client_id: client.id,
      redirect_uri: redirectUri,
      scope: scopes.join(" "),
      state,
      code_challenge: input.code_challenge,
      code_challenge_method: "S256",
    },
  };
}

/** The form's fields as own string properties (a field named __proto__ or toString stays a field; files are ignored). */
async function readLoginForm(c: Context): Promise<Record<string, string | undefined>> {
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === "string"));
}

function redirectWith(c: Context, uri: string, values: Record<string, string>) {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(values)) if (v) url.searchParams.set(k, v);
  c.header("cache-control", "no-store");
  c.header("referrer-policy", "no-referrer");
  return c.redirect(url.href, 302);
}

async function issueCodeRedirect(
  runtime: Runtime,
  c: Context,
  checked: { params: AuthorizeParams; scopes: string[] },
  userId: string,
) {
  const code = await createAuthorizationCode({
    ...runtime,
    clientId: checked.params.client_id,
    userId,
    redirectUri: checked.params.redirect_uri,
    codeChallenge: checked.params.code_challenge,
    scopes: checked.scopes,
  });
  return redirectWith(c, checked.params.redirect_uri, { code, state: checked.params.state });
}

/**
 * The login form's page may post to, and so be redirected to, the client's registered redirect_uri
 * (a partner's own origin): Chromium holds a form's redirects to form-action as well.
 */
function allowFormRedirectTo(runtime: Runtime, c: Context, redirectUri: string) {
  const { PUBLIC_URL, AUTH_URL, BASE_URL, PORTAL_URL } = runtime.env;
  const target = new URL(redirectUri);
  const targetSource = target.origin === "null" ? target.protocol : target.origin;
  const formActions = [...originsOf([PUBLIC_URL, AUTH_URL, BASE_URL, PORTAL_URL]), targetSource];
  c.header("content-security-policy", contentSecurityPolicy({ formActions }));
}

/** The login form posts a handful of short fields. */
const MAX_LOGIN_FORM_BYTES = 16 * 1024;
const limitLoginForm = limitRequestBody({
  maxBytes: MAX_LOGIN_FORM_BYTES,
  onTooLarge: (c) => c.html(renderAuthorizeError("The sign-in form was too large. Go back and try again."), 413),
});

/** Which form /connect/authorize shows: dispatchers (the portal) or workbench members (the dashboard's own client). */
function loginFormKind(runtime: Runtime, clientId: string) {
  if (clientId === DASHBOARD_CLIENT_ID) return { kind: "workbench" as const, devPassword: false };
  return { kind: "portal" as const, devPassword: devCredentialsAllowed(runtime.env) };
}

/** The dashboard's sign-in: a member's own name and password; no portal session is made. */
async function signInMember(
  runtime: Runtime,
  c: Context,
  checked: { params: AuthorizeParams; clientName: string; scopes: string[] },
  form: Record<string, string | undefined>,
  kind: ReturnType<typeof loginFormKind>,
) {
  const username = String(form.username ?? "").slice(0, 200);
  let member: Awaited<ReturnType<typeof authenticateMember>>;
  try {
    member = await authenticateMember({
      ...runtime,
      username,
      password: String(form.password ?? ""),
      source: remoteAddress(c),
    });
  } catch (error) {
    if (!isTooManyAttempts(error)) throw error;
    c.header("retry-after", String(error.retryAfterS));
    return c.html(
      renderLoginForm({
        params: checked.params,
        clientName: checked.clientName,
        ...kind,
        error: `Too many attempts: try again in ${error.retryAfterS} s.`,
        username,
      }),
      429,
    );
  }
  if (!member)
    return c.html(
      renderLoginForm({
        params: checked.params,
        clientName: checked.clientName,
        ...kind,
        error: "Unknown member, wrong password, or the member is disabled.",
        username,
      }),
      401,
    );
  return issueCodeRedirect(runtime, c, checked, member.id);
}

export function authorizeApp(runtime: Runtime) {
  const app = new Hono();

  app.get("/connect/authorize", async function handleAuthorize(c) {
    const checked = await checkAuthorizeRequest(runtime, c.req.query());
    if ("refuse" in checked) return c.html(renderAuthorizeError(checked.refuse), 400);
    if ("redirectError" in checked) {
      const e = checked.redirectError;
      return redirectWith(c, e.uri, { error: e.error, error_description: e.description, state: e.state });
    }
    allowFormRedirectTo(runtime, c, checked.params.redirect_uri);
    const form = loginFormKind(runtime, checked.params.client_id);
    if (form.kind === "workbench")
      return c.html(renderLoginForm({ params: checked.params, clientName: checked.clientName, ...form }));
    const session = await findPortalSession({ ...runtime, sessionId: getCookie(c, PORTAL_SESSION_COOKIE) });
    if (session) return issueCodeRedirect(runtime, c, checked, session.userId);
    return c.html(renderLoginForm({ params: checked.params, clientName: checked.clientName, ...form }));
  });

  app.post(
    "/connect/authorize",
    limitLoginForm,
    requireSameOrigin([runtime.env.AUTH_URL, ...applicationOrigins(runtime.env)]),
    async function handleLogin(c) {
      const form = await readLoginForm(c);
      const checked = await checkAuthorizeRequest(runtime, { ...form, response_type: "code" });
      if ("refuse" in checked) return c.html(renderAuthorizeError(checked.refuse), 400);
      if ("redirectError" in checked) {
        const e = checked.redirectError;
        return redirectWith(c, e.uri, { error: e.error, error_description: e.description, state: e.state });
      }
      allowFormRedirectTo(runtime, c, checked.params.redirect_uri);
      const kind = loginFormKind(runtime, checked.params.client_id);
      if (kind.kind === "workbench") return signInMember(runtime, c, checked, form, kind);
      const typed = String(form.username ?? "");
      // Names match case-insensitively; when several do (j.smith / J.Smith), the exact spelling picks one.
      const matches = await findUsersByName({ db: runtime.db, username: typed });
      const users = matches.length > 1 ? matches.filter((u) => u.username === typed) : matches;
      const password = String(form.password ?? "");
      // The dev password is public: on a shared workbench it is refused unless the operator opted in.
      if (verifyDevPassword(password) && !kind.devPassword)
        return c.html(
          renderLoginForm({
            params: checked.params,
            clientName: checked.clientName,
            ...kind,
            error: DEV_PASSWORD_REFUSED,
            username: typed,
          }),
          401,
        );
      const user = users.length === 1 && users[0]!.canSignIn && verifyDevPassword(password) ? users[0]! : undefined;
      if (!user) {
        const error =
          users.length > 1 || (matches.length > 1 && users.length === 0)
            ? "This user name matches more than one user: type it exactly."
            : "Unknown user, wrong password, or the user may not sign in.";
        return c.html(
          renderLoginForm({
            params: checked.params,
            clientName: checked.clientName,
            ...kind,
            error,
            username: String(form.username ?? ""),
          }),
          401,
        );
      }
      const sessionId = await createPortalSession({ ...runtime, userId: user.id, method: "password" });
      setCookie(c, PORTAL_SESSION_COOKIE, sessionId, sessionCookieOptions(isSecureOrigin(runtime.env)));
      return issueCodeRedirect(runtime, c, checked, user.id);
    },
  );

  return app;
}
