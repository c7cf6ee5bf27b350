// The service's own identities for outbound webhooks (platform-interface.md,
// "Webhook receiver token validation"), minted by the embedded identity server
// and signed with the same keys its discovery document publishes:
//   v3:     sub = client_id = Publisher,     aud urn:service:webhooks:{agency_id}, scope webhooks.receive
//   v1/v2:  sub = client_id = PsapConnector, aud urn:service:agency:{agency_id},   scope the psap.* scopes of the endpoint
import type { Runtime } from "../runtime.ts";
import { mintAccessToken } from "./access-token.ts";

export const PUBLISHER = "Publisher";
export const PSAP_CONNECTOR = "PsapConnector";
export const WEBHOOKS_RECEIVE_SCOPE = "webhooks.receive";
export const SERVICE_TOKEN_LIFETIME_S = 3600;

/** Agency IDs appear in audiences as lowercase dashed UUIDs. */
const canonicalAgencyId = (agencyId: string) => agencyId.toLowerCase();

export const publisherAudience = (agencyId: string) => `urn:service:webhooks:${canonicalAgencyId(agencyId)}`;
export const psapConnectorAudience = (agencyId: string) => `urn:service:agency:${canonicalAgencyId(agencyId)}`;

export type ServiceToken = { accessToken: string; expiresAt: Date };

type Deps = Pick<Runtime, "keys" | "clock" | "env">;

/** v3 webhook credential for one agency. */
export function mintPublisherToken(deps: Deps, agencyId: string): Promise<ServiceToken> {
  return mintAccessToken({
    keys: deps.keys,
    clock: deps.clock,
    issuer: deps.env.AUTH_URL,
    subject: PUBLISHER,
    clientId: PUBLISHER,
    audience: publisherAudience(agencyId),
    scope: [WEBHOOKS_RECEIVE_SCOPE],
    lifetimeS: SERVICE_TOKEN_LIFETIME_S,
  });
}

/** v1/v2 (and the first /about discovery call) credential for one agency, with the psap.* scopes asked for. */
export function mintPsapConnectorToken(deps: Deps, agencyId: string, scopes: string[]): Promise<ServiceToken> {
  return mintAccessToken({
    keys: deps.keys,
    clock: deps.clock,
    issuer: deps.env.AUTH_URL,
    subject: PSAP_CONNECTOR,
    clientId: PSAP_CONNECTOR,
    audience: psapConnectorAudience(agencyId),
    scope: scopes,
    lifetimeS: SERVICE_TOKEN_LIFETIME_S,
  });
}
