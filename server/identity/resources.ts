// RFC 8707 resources: every scope belongs to one resource (scopes.ts), and a token's `aud`
// lists the resources its granted scopes belong to — or only the one named by
// the token request's `resource` field (invalid_target when no requested scope
// grants it). The inbound API and the Account API check `aud` against these.
import type { Env } from "../platform/env.ts";
import { SCOPES, type ResourceName, type Scope } from "./scopes.ts";

/** The inbound API resource indicator: {base_url}/v1. */
export const inboundApiResource = (env: Pick<Env, "BASE_URL">) => `${env.BASE_URL}/v1`;
/** The identity server's own Account API: {auth_url}/Account. */
export const accountApiResource = (env: Pick<Env, "AUTH_URL">) => `${env.AUTH_URL}/Account`;

export function resourceUri(name: ResourceName, env: Pick<Env, "BASE_URL" | "AUTH_URL">): string {
  return name === "inbound" ? inboundApiResource(env) : accountApiResource(env);
}

/** The audiences a set of scopes grants (deduplicated, in a stable order). */
export function audiencesForScopes(scopes: string[], env: Pick<Env, "BASE_URL" | "AUTH_URL">): string[] {
  const names = new Set<ResourceName>();
  for (const s of scopes) {
    // Own keys only: a client's scopes are configurable text, and `constructor` is not a resource.
    const r = Object.hasOwn(SCOPES, s) ? SCOPES[s as Scope].resource : undefined;
    if (r) names.add(r);
  }
  return (["inbound", "account"] as const).filter((n) => names.has(n)).map((n) => resourceUri(n, env));
}
