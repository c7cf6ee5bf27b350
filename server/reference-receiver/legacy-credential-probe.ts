// Discovery's legacy-credential probe as the reference receiver records it. The spec orders
// discovery to try GET /about with the legacy PsapConnector credential first and, on 401/403, again
// with Publisher (platform-interface.md, "Webhook receiver token validation"). A receiver declaring
// 3.x is v3-only and must refuse that first try: an expected step of every discovery, not a refused
// token to worry about. The receiver records it with this detail, so the dashboard can tell it from
// a real refusal without keeping the token.
export const LEGACY_PROBE_DETAIL =
  "legacy PsapConnector credential refused as expected: this receiver declares 3.x (discovery then retries with Publisher)";

/** A recorded refusal that is discovery's legacy-credential probe (on /about, the detail above). */
export function isLegacyCredentialProbe(r: { method: string; path: string; outcome: string; detail: string | null }) {
  return (
    r.method === "GET" && r.path === "/about" && r.outcome === "rejected-token" && r.detail === LEGACY_PROBE_DETAIL
  );
}
