// The v1 contract. The spec names no v1 shape of its own beyond what it shares
// with v2 (requestId, requestTimeStampUtc and isTest in the body; the
// PsapConnector token with its psap.* scopes; the corrected position sources).
// Decision, documented in the JSON Schema document: v1 is the v2 contract under
// the base route /v1 — the same route table (LEGACY_ROUTES), the same bodies
// (webhook-contracts/v2/event-bodies.schema.ts) and the same scopes. Where v1 must differ
// later, this is the one place that says so.
export { LEGACY_ROUTES as V1_ROUTES, legacyPath, legacyTemplate } from "../v2/routes.ts";
export const V1_BASE_ROUTE = "/v1";
