// {auth_url}/Account: the passwordless sign-in API and the browser endpoints of
// the portal session (platform-interface.md, "Passwordless sign-in sequence" and
// LoginUserByToken rules 1-6). Neither the token nor the redirect URL is ever
// logged: the request logger writes paths only, and nothing here logs a query.
import { Hono, type Context } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../runtime.ts";
import { getUserSigninToken, ZGetUserSigninTokenRequest } from "../../identity/get-user-signin-token.ts";
import {
  createPortalSession,
  endPortalSession,
  findPortalSession,
  PORTAL_SESSION_COOKIE,
  sessionCookieOptions,
} from "../../identity/portal-sessions.ts";
import { USER_SIGNIN_SCOPE } from "../../identity/scopes.ts";
import { redeemSigninToken } from "../../identity/signin-tokens.ts";
import { validateReturnUrl } from "../../identity/validate-return-url.ts";
import { authenticateBearer, authorizeAccountScope } from "./authenticate-bearer.ts";
import { renderAccountProblem } from "./render-account-problem.ts";
import { requireSameOrigin } from "./require-same-origin.ts";
import { limitRequestBody } from "../limit-request-body.ts";
import { requestLogFields } from "../trace-requests.ts";
import { readJsonInput } from "../read-json-input.ts";
import { unsafeTextProblem } from "../../platform/json-input.ts";

async function readJsonBody(c: Context): Promise<unknown> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
    throw new AppError("UnsupportedMediaType", "The body must be application/json.");
  }
  return readJsonInput(c);
}

function validateSigninRequest(body: unknown) {
  const parsed = ZGetUserSigninTokenRequest.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((i) => ({ field: i.path.join(".") || "body", message: i.message }));
  throw new AppError("ValidationFailed", "The request body is invalid.", errors);
}

/**
 * Rules 1-3: a browser without a session gets one for a valid token of a user who
 * may sign in; a browser with a session keeps it and the token is not applied.
 * Never throws (the redirect always happens, rule 2): a failure creates no session
 * and is logged without the URL.
 */
async function applySigninTokenUnlessSignedIn(runtime: Runtime, c: Context): Promise<void> {
  try {
    const existing = await findPortalSession({ ...runtime, sessionId: getCookie(c, PORTAL_SESSION_COOKIE) });
    const token = c.req.query("token");
    // A token with NUL or a lone surrogate names no token (rule 2: no session, still the redirect).
    if (existing || !token || unsafeTextProblem(token)) return;
    const signedIn = await redeemSigninToken({ ...runtime, token });
    if (!signedIn) return;
    const sessionId = await createPortalSession({ ...runtime, userId: signedIn.userId, method: "signin-token" });
    setCookie(c, PORTAL_SESSION_COOKIE, sessionId, sessionCookieOptions(isSecureOrigin(runtime.env)));
  } catch (error) {
    runtime.logger.error({ err: error, ...requestLogFields(c) }, "LoginUserByToken could not apply a token");
  }
}

/** The origins an absolute returnUrl may name (rule 5). */
export const applicationOrigins = (env: Runtime["env"]) => [env.PUBLIC_URL, env.PORTAL_URL];

export const isSecureOrigin = (env: Runtime["env"]) => env.AUTH_URL.startsWith("https://");

export function accountApp(runtime: Runtime) {
  const app = new Hono();
  const errorTypeBase = `${runtime.env.AUTH_URL}/errors`;

  const limitBody = limitRequestBody({
    maxBytes: 16 * 1024,
    onTooLarge: (c) =>
      renderAccountProblem(
        c,
        new AppError("ValidationFailed", "The request body is too large.", [{ field: "body", message: "too large" }]),
        { logger: runtime.logger, errorTypeBase },
      ),
  });
  app.post("/Account/GetUserSigninToken", limitBody, async function handleGetUserSigninToken(c) {
    try {
      const claims = await authenticateBearer(runtime, c.req.header("authorization"));
      authorizeAccountScope(claims, USER_SIGNIN_SCOPE);
      const request = validateSigninRequest(await readJsonBody(c));
      const result = await getUserSigninToken({ ...runtime, clientId: claims.client_id, request });
      c.header("cache-control", "no-store");
      return c.json(result);
    } catch (error) {
      return renderAccountProblem(c, error, { logger: runtime.logger, errorTypeBase });
    }
  });

  app.get("/Account/LoginUserByToken", async function handleLoginUserByToken(c) {
    // Rules 4-5 first: wherever the token leads, the redirect target is settled.
    const target = validateReturnUrl(c.req.query("returnUrl"), applicationOrigins(runtime.env)) ?? "/";
    await applySigninTokenUnlessSignedIn(runtime, c);
    c.header("cache-control", "no-store");
    c.header("referrer-policy", "no-referrer");
    return c.redirect(target, 302);
  });

  // Who this browser is signed in as (same-origin use by the portal; never cached).
  app.get("/Account/Session", async function handleSession(c) {
    const session = await findPortalSession({ ...runtime, sessionId: getCookie(c, PORTAL_SESSION_COOKIE) });
    c.header("cache-control", "no-store");
    if (!session) return c.json({ signedIn: false });
    const { userId, username, name, email, role, agencyId, agencyName, method, expiresAt } = session;
    return c.json({
      signedIn: true,
      userId,
      username,
      name,
      email,
      role,
      agencyId,
      agencyName,
      method,
      expiresAtUtc: expiresAt.toISOString(),
    });
  });

  // Sign-out of the portal session (a form POST: SameSite=Lax keeps other sites from posting it with the cookie).
  app.post(
    "/Account/Logout",
    requireSameOrigin([runtime.env.AUTH_URL, ...applicationOrigins(runtime.env)]),
    async function handleLogout(c) {
      await endPortalSession({ ...runtime, sessionId: getCookie(c, PORTAL_SESSION_COOKIE) });
      deleteCookie(c, PORTAL_SESSION_COOKIE, sessionCookieOptions(isSecureOrigin(runtime.env)));
      return c.redirect(validateReturnUrl(c.req.query("returnUrl"), applicationOrigins(runtime.env)) ?? "/portal", 303);
    },
  );

  return app;
}
