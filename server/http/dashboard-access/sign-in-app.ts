// /auth/*: the dashboard's side of the sign-in of a shared workbench. The dashboard
// is a public client of the workbench's own identity server (authorization code +
// PKCE S256, as the portal): /auth/sign-in starts the flow, /connect/authorize's form
// authenticates the member, /auth/callback redeems the code server-side through the
// token endpoint's own grant, then holds a session of its own (cookie wb_session, `__Host-` over
// https) and hands its key to the tab that started the sign-in (decision 0071).
// /auth/setup spends the one-time setup credential to make the first admin; /auth/cli is
// `workbench login`'s confirm page and code exchange (cli-login-app.ts).
import { createHash } from "node:crypto";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Runtime } from "../../runtime.ts";
import { verifyAccessToken } from "../../identity/access-token.ts";
import { generateOpaqueValue } from "../../identity/hash-opaque-value.ts";
import { issueAuthorizationCodeTokens } from "../../identity/issue-interactive-tokens.ts";
import { isAppError } from "../../platform/errors.ts";
import {
  DASHBOARD_AUDIENCE,
  DASHBOARD_CALLBACK_PATH,
  DASHBOARD_CLIENT_ID,
  DASHBOARD_SCOPE,
  ensureDashboardClient,
} from "../../identity/dashboard-client.ts";
import { consumeSetupCredential } from "../../workbench/access/first-admin.ts";
import { createMember, hasEnabledAdmin, ZPassword, ZUsername } from "../../workbench/access/members.ts";
import { createWorkbenchSession, endWorkbenchSession, sessionCookieName } from "../../workbench/access/sessions.ts";
import { applicationOrigins } from "../identity/account.ts";
import { requireSameOrigin } from "../identity/require-same-origin.ts";
import { cliLoginApp } from "./cli-login-app.ts";
import {
  renderMessagePage,
  renderSessionHandOver,
  renderSetupForm,
  renderSignedOut,
  renderSignInStart,
} from "./render-auth-pages.ts";
import { contentSecurityPolicy, createNonce } from "../content-security-policy.ts";
import { safeReturnPath } from "./safe-return-path.ts";

/** The pending sign-in (state, PKCE verifier, return path), for 10 minutes, sent back to /auth only. */
const SIGNIN_COOKIE = "wb_signin";
const SIGNIN_COOKIE_MAX_AGE_S = 600;

type PendingSignIn = { state: string; verifier: string; next: string };

function readPending(c: Context): PendingSignIn | undefined {
  const raw = getCookie(c, SIGNIN_COOKIE);
  if (!raw || raw.length > 3000) return undefined;
  try {
    const value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Partial<PendingSignIn>;
    return typeof value.state === "string" && typeof value.verifier === "string" && typeof value.next === "string"
      ? (value as PendingSignIn)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What the handlers share: the dashboard's cookies belong to PUBLIC_URL (AUTH_URL may be another origin in a split deployment). */
type SignInSettings = { runtime: Runtime; secure: boolean; callbackUri: string; sessionCookie: string };

/** A page of ours that runs one script: the policy with this response's nonce. */
function withScriptNonce(c: Context, runtime: Runtime): string {
  const nonce = createNonce();
  const { PUBLIC_URL, AUTH_URL, BASE_URL, PORTAL_URL } = runtime.env;
  const formActions = [PUBLIC_URL, AUTH_URL, BASE_URL, PORTAL_URL].map((u) => new URL(u).origin);
  c.header("content-security-policy", contentSecurityPolicy({ formActions, nonce }));
  return nonce;
}

function noStore(c: Context) {
  c.header("cache-control", "no-store");
  c.header("referrer-policy", "same-origin");
}

export function dashboardSignInApp(runtime: Runtime) {
  const { env } = runtime;
  const settings: SignInSettings = {
    runtime,
    secure: env.PUBLIC_URL.startsWith("https://"),
    callbackUri: `${env.PUBLIC_URL}${DASHBOARD_CALLBACK_PATH}`,
    sessionCookie: sessionCookieName(env.PUBLIC_URL),
  };
  const sameOrigin = requireSameOrigin([env.PUBLIC_URL, ...applicationOrigins(env)]);
  const smallForm = bodyLimit({ maxSize: 8 * 1024, onError: (c) => c.text("The form is too large.", 413) });
  const app = new Hono();
  app.get("/auth/sign-in", startSignIn(settings));
  app.get(DASHBOARD_CALLBACK_PATH, finishSignIn(settings));
  app.post("/auth/sign-out", sameOrigin, signOut(settings));
  app.get("/auth/setup", showSetup(settings));
  app.post("/auth/setup", smallForm, sameOrigin, finishSetup(settings));
  app.route("/", cliLoginApp(runtime, sameOrigin));
  return app;
}

function startSignIn({ runtime, secure, callbackUri }: SignInSettings) {
  const { env } = runtime;
  return async function startSignIn(c: Context) {
    noStore(c);
    const next = safeReturnPath(c.req.query("next"));
    if (env.ACCESS_MODE === "local") return c.redirect(next, 302);
    await ensureDashboardClient(runtime);
    const pending: PendingSignIn = { state: generateOpaqueValue(), verifier: generateOpaqueValue(), next };
    setCookie(c, SIGNIN_COOKIE, Buffer.from(JSON.stringify(pending)).toString("base64url"), {
      path: "/auth",
      httpOnly: true,
      sameSite: "Lax",
      secure,
      maxAge: SIGNIN_COOKIE_MAX_AGE_S,
    });
    const authorize = new URL(`${env.AUTH_URL}/connect/authorize`);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: DASHBOARD_CLIENT_ID,
      redirect_uri: callbackUri,
      scope: DASHBOARD_SCOPE,
      state: pending.state,
      code_challenge: createHash("sha256").update(pending.verifier).digest("base64url"),
      code_challenge_method: "S256",
    }).toString();
    const nonce = withScriptNonce(c, runtime);
    return c.html(renderSignInStart({ state: pending.state, authorizeUrl: authorize.href, nonce }));
  };
}

function finishSignIn({ runtime, secure, callbackUri, sessionCookie }: SignInSettings) {
  const { env } = runtime;
  return async function finishSignIn(c: Context) {
    noStore(c);
    const again = { href: "/auth/sign-in", label: "Sign in again" };
    const pending = readPending(c);
    const state = c.req.query("state");
    if (!pending || !state || state !== pending.state)
      return c.html(
        renderMessagePage({
          title: "Sign-in failed",
          message: "This sign-in was not started here, or it took too long.",
          link: again,
        }),
        400,
      );
    deleteCookie(c, SIGNIN_COOKIE, { path: "/auth", secure });
    const error = c.req.query("error");
    if (error)
      return c.html(
        renderMessagePage({
          title: "Sign-in failed",
          message: `The identity server answered ${error.slice(0, 100)}.`,
          link: again,
        }),
        400,
      );
    const code = c.req.query("code") ?? "";
    try {
      const tokens = await issueAuthorizationCodeTokens({
        ...runtime,
        request: {
          grant_type: "authorization_code",
          client_id: DASHBOARD_CLIENT_ID,
          code,
          redirect_uri: callbackUri,
          code_verifier: pending.verifier,
          resource: [],
        },
      });
      const claims = await verifyAccessToken({
        token: tokens.access_token,
        keys: runtime.keys,
        clock: runtime.clock,
        issuer: env.AUTH_URL,
        audience: DASHBOARD_AUDIENCE,
      });
      if (claims.client_id !== DASHBOARD_CLIENT_ID || !claims.sub) throw new Error("not a dashboard token");
      const session = await createWorkbenchSession({ ...runtime, memberId: claims.sub });
      setCookie(c, sessionCookie, session.id, { path: "/", httpOnly: true, sameSite: "Lax", secure });
      const nonce = withScriptNonce(c, runtime);
      return c.html(renderSessionHandOver({ state, key: session.key, next: pending.next, nonce }));
    } catch (e) {
      if (!isAppError(e)) runtime.logger.warn({ err: e }, "dashboard sign-in callback failed");
      return c.html(
        renderMessagePage({
          title: "Sign-in failed",
          message: "The sign-in code was refused (expired or already used).",
          link: again,
        }),
        400,
      );
    }
  };
}

function signOut({ runtime, secure, sessionCookie }: SignInSettings) {
  return async function signOut(c: Context) {
    noStore(c);
    await endWorkbenchSession({ ...runtime, sessionId: getCookie(c, sessionCookie) });
    deleteCookie(c, sessionCookie, { path: "/", secure });
    return c.html(renderSignedOut({ nonce: withScriptNonce(c, runtime) }));
  };
}

function showSetup({ runtime }: SignInSettings) {
  const { env } = runtime;
  return async function showSetup(c: Context) {
    noStore(c);
    if (env.ACCESS_MODE === "local" || (await hasEnabledAdmin(runtime)))
      return c.html(
        renderMessagePage({
          title: "No setup needed",
          message: "This workbench has an admin already (or needs none: local mode).",
          link: { href: "/", label: "Open the dashboard" },
        }),
        404,
      );
    return c.html(renderSetupForm());
  };
}

function finishSetup({ runtime }: SignInSettings) {
  const { env } = runtime;
  return async function finishSetup(c: Context) {
    noStore(c);
    if (env.ACCESS_MODE === "local" || (await hasEnabledAdmin(runtime)))
      return c.html(
        renderMessagePage({
          title: "No setup needed",
          message: "This workbench has an admin already.",
          link: { href: "/auth/sign-in", label: "Sign in" },
        }),
        409,
      );
    const form = (await c.req.parseBody()) as Record<string, unknown>;
    const username = ZUsername.safeParse(form.username);
    const password = ZPassword.safeParse(form.password);
    const shownName = typeof form.username === "string" ? form.username.slice(0, 64) : "";
    if (!username.success || !password.success) {
      return c.html(
        renderSetupForm({
          username: shownName,
          error: !username.success
            ? "The admin name: 2-64 letters, digits or . _ @ -."
            : "The password needs at least 12 characters.",
        }),
        400,
      );
    }
    // Checked last, so a typo in the name or password does not spend the code.
    if (!consumeSetupCredential(typeof form.code === "string" ? form.code.trim() : "")) {
      return c.html(
        renderSetupForm({ username: shownName, error: "That setup code is wrong or was used already." }),
        401,
      );
    }
    await createMember({ ...runtime, input: { username: username.data, role: "admin", password: password.data } });
    return c.html(
      renderMessagePage({
        title: "Admin created",
        message: `${username.data} is an admin now. Sign in with that name and password.`,
        link: { href: "/auth/sign-in", label: "Sign in" },
      }),
      201,
    );
  };
}
