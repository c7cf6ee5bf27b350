// RFC 8707 narrowing: without `resource`, aud is every resource the granted
// scopes belong to; with it, aud is the requested resource(s), each of which must
// be granted by a requested scope, else invalid_target.
import type { Env } from "../platform/env.ts";
import { audiencesForScopes } from "./resources.ts";
import { tokenError } from "./token-errors.ts";

export function selectAudience(options: {
  scopes: string[];
  resources: string[];
  env: Pick<Env, "BASE_URL" | "AUTH_URL">;
}): string[] {
  const granted = audiencesForScopes(options.scopes, options.env);
  if (options.resources.length === 0) return granted;
  for (const r of options.resources) {
    if (!granted.includes(r))
      throw tokenError("InvalidTarget", `The resource ${r} is not granted by the requested scopes.`);
  }
  return [...new Set(options.resources)];
}
