// Bearer authentication for the identity server's own Account API, with the same meaning as /v1's:
// a token that does not verify against our keys on the workbench clock, or whose `aud` does not
// name {auth_url}/Account, is not a valid token here (401 AuthenticationRequired, RFC 6750
// `error="invalid_token"`). A valid token for this resource without the operation's scope is
// 403 AuthorizationDenied. docs/identity.md, "Check order".
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../runtime.ts";
import { AccessTokenError, verifyAccessToken, type AccessTokenClaims } from "../../identity/access-token.ts";
import { accountApiResource } from "../../identity/resources.ts";

export async function authenticateBearer(
  runtime: Pick<Runtime, "keys" | "clock" | "env">,
  authorization: string | undefined,
): Promise<AccessTokenClaims> {
  const match = /^Bearer +([A-Za-z0-9\-_.~+/]+=*) *$/i.exec(authorization ?? "");
  if (!match) throw new AppError("AuthenticationRequired", "A bearer access token is required.");
  try {
    return await verifyAccessToken({
      token: match[1]!,
      keys: runtime.keys,
      clock: runtime.clock,
      issuer: runtime.env.AUTH_URL,
      audience: accountApiResource(runtime.env),
    });
  } catch (e) {
    if (e instanceof AccessTokenError && e.reason === "wrong_audience")
      throw new AppError("AuthenticationRequired", "The access token is not valid here (wrong_audience).");
    throw new AppError("AuthenticationRequired", "The bearer access token is invalid or expired.");
  }
}

export function authorizeAccountScope(claims: AccessTokenClaims, scope: string): void {
  if (!claims.scope.split(" ").includes(scope))
    throw new AppError("AuthorizationDenied", `The token does not grant the scope ${scope}.`);
}
