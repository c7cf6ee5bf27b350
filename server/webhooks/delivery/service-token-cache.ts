// Bearer tokens for outbound calls, cached per (agency, identity) until shortly
// before expiry (platform-interface.md, Access tokens rule 2: never one per call).
// Minting RS256 costs ~1 ms; a burst of 1,000 events would otherwise sign 1,000 tokens.
import type { Runtime } from "../../platform/runtime.ts";
import { mintPsapConnectorToken, mintPublisherToken, type ServiceToken } from "../../identity/service-tokens.ts";

export type ServiceIdentity = "Publisher" | "PsapConnector";

/** Renew this long before expiry, so a token never expires in flight or at the receiver's clock skew. */
export const RENEW_BEFORE_EXPIRY_MS = 5 * 60 * 1000;
/** /about with the legacy credential asks for the read scope a v1/v2 connector would. */
const PSAP_CONNECTOR_ABOUT_SCOPES = ["psap.read"];

const SLOT = Symbol.for("incident-workbench.webhook-token-cache");
// Per signing-key store (one per workbench; tests run several), then per (issuer, agency, identity).
type CachedToken = { minted: Promise<ServiceToken>; mintedAtMs: number };
const holder = globalThis as typeof globalThis & { [SLOT]?: WeakMap<object, Map<string, CachedToken>> };
const caches = (holder[SLOT] ??= new WeakMap());

export async function getServiceToken(runtime: Pick<Runtime, "keys" | "clock" | "env">, agencyId: string, identity: ServiceIdentity): Promise<string> {
  let cache = caches.get(runtime.keys);
  if (!cache) caches.set(runtime.keys, (cache = new Map()));
  const key = `${runtime.env.AUTH_URL}|${agencyId}|${identity}`;
  const cached = cache.get(key);
  const nowMs = runtime.clock.nowMs();
  // A token minted while the workbench clock stood ahead (e.g. +61 min, then reset) carries an
  // iat/nbf in the receiver's future, which it refuses with 401 until that moment: re-mint
  // whenever the clock has moved back past the minting time.
  if (cached && cached.mintedAtMs <= nowMs) {
    const token = await cached.minted.catch(() => undefined);
    if (token && token.expiresAt.getTime() - RENEW_BEFORE_EXPIRY_MS > nowMs) return token.accessToken;
  }
  const minted = identity === "Publisher" ? mintPublisherToken(runtime, agencyId) : mintPsapConnectorToken(runtime, agencyId, PSAP_CONNECTOR_ABOUT_SCOPES);
  cache.set(key, { minted, mintedAtMs: nowMs });
  return (await minted).accessToken;
}

export function clearServiceTokenCache(runtime: Pick<Runtime, "keys">): void {
  caches.delete(runtime.keys);
}
