// The token request's form fields (platform-interface.md, "Token request"). Every
// field is a single value except `resource` (RFC 8707 allows it repeated). Values
// are validated by the grant, so that each failure gets its table's error code.
import { z } from "zod";

const field = z.string().optional();

export const ZTokenRequest = z.object({
  grant_type: field,
  client_id: field,
  client_secret: field,
  scope: field,
  resource: z.array(z.string()).default([]),
  agency_context: field,
  psap_id: field,
  username: field,
  // authorization_code and refresh_token
  code: field,
  redirect_uri: field,
  code_verifier: field,
  refresh_token: field,
});
export type TTokenRequest = z.infer<typeof ZTokenRequest>;

export type TTokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  refresh_token?: string;
};

/** Space-separated scopes, deduplicated in request order. */
export function parseScopeList(scope: string | undefined): string[] {
  return [...new Set((scope ?? "").split(" ").filter(Boolean))];
}
