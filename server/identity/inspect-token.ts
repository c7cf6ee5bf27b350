// The token inspector: decode a pasted JWT (header and claims, without trusting
// it), then say whether it verifies against the current JWKS and when it expires
// on the workbench clock. Never stores or logs the token.
import { decodeJwt, decodeProtectedHeader } from "jose";
import type { Runtime } from "../runtime.ts";
import { AccessTokenError, verifyAccessToken } from "./access-token.ts";

export async function inspectToken(options: Pick<Runtime, "keys" | "clock" | "env"> & { token: string }) {
  const deps = options;
  const token = options.token.trim().replace(/^Bearer\s+/i, "");
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(token);
    claims = decodeJwt(token);
  } catch {
    return { decoded: false as const, message: "This is not a JWT (three base64url parts: header.payload.signature)." };
  }
  let verification: { ok: true } | { ok: false; reason: string; message: string };
  try {
    await verifyAccessToken({ token, keys: deps.keys, clock: deps.clock, issuer: deps.env.AUTH_URL });
    verification = { ok: true };
  } catch (e) {
    verification =
      e instanceof AccessTokenError
        ? { ok: false, reason: e.reason, message: e.message }
        : { ok: false, reason: "error", message: "verification failed" };
  }
  const nowMs = deps.clock.nowMs();
  const exp = typeof claims.exp === "number" ? claims.exp * 1000 : undefined;
  return {
    decoded: true as const,
    header,
    claims,
    verification,
    workbenchNow: new Date(nowMs).toISOString(),
    expiresAt: exp === undefined ? null : new Date(exp).toISOString(),
    expiresInS: exp === undefined ? null : Math.round((exp - nowMs) / 1000),
  };
}
