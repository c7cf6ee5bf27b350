// Bearer tokens for outbound calls, cached per (agency, identity) until shortly
// before expiry (platform-interface.md, Access tokens rule 2: never one per call).
// Minting RS256 costs ~1 ms; a burst of 1,000 events would otherwise sign 1,000 tokens.
import type { Runtime } from "../../runtime.ts";
import {
  mintPsapConnectorToken,
  mintPublisherToken,
  SERVICE_TOKEN_LIFETIME_S,
  type ServiceToken,
} from "../../identity/service-tokens.ts";
import { processSingleton } from "../../platform/process-singleton.ts";

export type ServiceIdentity = "Publisher" | "PsapConnector";

/** Renew this long before expiry, so a token never expires in flight or at the receiver's clock skew. */
export const RENEW_BEFORE_EXPIRY_MS = 5 * 60 * 1000;
/** /about with the legacy credential asks for the read scope a v1/v2 connector would. */
const PSAP_CONNECTOR_ABOUT_SCOPES = ["psap.read"];

// Per signing-key store (one per workbench; tests run several), then per (issuer, agency, identity).
const caches = processSingleton("webhook-token-cache", () => new WeakMap<object, Map<string, Promise<ServiceToken>>>());

/** `scopes`: PsapConnector only — the psap.* scope a v1/v2 endpoint requires (the legacy contracts); default the /about read scope. */
export async function getServiceToken(
  runtime: Pick<Runtime, "keys" | "clock" | "env">,
  agencyId: string,
  identity: ServiceIdentity,
  scopes: string[] = PSAP_CONNECTOR_ABOUT_SCOPES,
): Promise<string> {
  let cache = caches.get(runtime.keys);
  if (!cache) caches.set(runtime.keys, (cache = new Map()));
  const key = `${runtime.env.AUTH_URL}|${agencyId}|${identity}${identity === "PsapConnector" ? `|${scopes.join(" ")}` : ""}`;
  const cached = cache.get(key);
  if (cached) {
    const token = await cached.catch(() => undefined);
    if (token && isUsable(token, runtime.clock.nowMs())) return token.accessToken;
  }
  const minted =
    identity === "Publisher"
      ? mintPublisherToken(runtime, agencyId)
      : mintPsapConnectorToken(runtime, agencyId, scopes);
  cache.set(key, minted);
  return (await minted).accessToken;
}

export function clearServiceTokenCache(runtime: Pick<Runtime, "keys">): void {
  caches.delete(runtime.keys);
}

/**
 * Valid from its nbf (= iat) until shortly before exp, on the workbench clock. The lower bound
 * matters when the clock goes back (`workbench clock reset` after a jump ahead): a token minted
 * at the advanced time is "not yet valid" to every receiver (Webhook receiver token validation:
 * lifetime valid), and reusing it failed every delivery with 401 for the hour real time needs to
 * catch up (found by server/whole-chain/clock-reset.int.test.ts).
 */
function isUsable(token: ServiceToken, nowMs: number): boolean {
  const issuedAtMs = token.expiresAt.getTime() - SERVICE_TOKEN_LIFETIME_S * 1000;
  return issuedAtMs <= nowMs && token.expiresAt.getTime() - RENEW_BEFORE_EXPIRY_MS > nowMs;
}
