// Bearer authentication for the identity server's own Account API: the token
// must verify against our keys on the workbench clock (401 AuthenticationRequired
// otherwise), name {auth_url}/Account in `aud` and carry the operation's scope
// (403 AuthorizationDenied otherwise).
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../runtime.ts";
import { verifyAccessToken, type AccessTokenClaims } from "../../identity/access-token.ts";
import { accountApiResource } from "../../identity/resources.ts";

export async function authenticateBearer(
  runtime: Pick<Runtime, "keys" | "clock" | "env">,
  authorization: string | undefined,
): Promise<AccessTokenClaims> {
  const match = /^Bearer +([A-Za-z0-9\-_.~+/]+=*) *$/i.exec(authorization ?? "");
  if (!match) throw new AppError("AuthenticationRequired", 401, "A bearer access token is required.");
  try {
    return await verifyAccessToken({
      token: match[1]!,
      keys: runtime.keys,
      clock: runtime.clock,
      issuer: runtime.env.AUTH_URL,
    });
  } catch {
    throw new AppError("AuthenticationRequired", 401, "The bearer access token is invalid or expired.");
  }
}

export function authorizeAccountScope(runtime: Pick<Runtime, "env">, claims: AccessTokenClaims, scope: string): void {
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(accountApiResource(runtime.env)))
    throw new AppError("AuthorizationDenied", 403, "The token's audience does not include the Account API.");
  if (!claims.scope.split(" ").includes(scope))
    throw new AppError("AuthorizationDenied", 403, `The token does not grant the scope ${scope}.`);
}
