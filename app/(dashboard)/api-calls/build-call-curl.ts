// PURE: a recorded call as a cURL command that sends it again (the API calls page's *Copy as cURL*).
// What the workbench never kept stands in as a shell variable: $TOKEN for the access token,
// $CLIENT_SECRET (and $CODE, $CODE_VERIFIER, $REFRESH_TOKEN) for the form's secrets. The first line
// says where to get them.
import { shellQuote } from "../partner-console/build-request";

type Call = {
  method: string;
  path: string;
  surface: string;
  clientId: string | null;
  agencyId: string | null;
  username: string | null;
  request: { headers: Record<string, string>; query: Record<string, string> };
  requestBody: string | null;
};

const FORM_SECRETS: Record<string, string> = {
  client_secret: "$CLIENT_SECRET",
  code: "$CODE",
  code_verifier: "$CODE_VERIFIER",
  refresh_token: "$REFRESH_TOKEN",
  password: "$PASSWORD",
};
const SKIPPED = new Set(["content-length", "host", "user-agent", "accept", "traceparent"]);

export function buildCallCurl(origin: string, call: Call): string {
  const query = new URLSearchParams(call.request.query).toString();
  const url = `${origin}${call.path}${query ? `?${query}` : ""}`;
  const lines = [`curl -X ${call.method} ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(call.request.headers)) {
    if (SKIPPED.has(name)) continue;
    // "$TOKEN" in double quotes: the shell expands it; everything else stays literal.
    if (name === "authorization") lines.push(`-H "authorization: Bearer $TOKEN"`);
    else lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (call.surface === "token" && call.requestBody !== null) {
    for (const [name, value] of new URLSearchParams(call.requestBody))
      lines.push(
        FORM_SECRETS[name]
          ? `--data-urlencode "${name}=${FORM_SECRETS[name]}"`
          : `--data-urlencode ${shellQuote(`${name}=${value}`)}`,
      );
  } else if (call.requestBody !== null) lines.push(`--data-raw ${shellQuote(call.requestBody)}`);
  return `${hintOf(call)}\n${lines.join(" \\\n  ")}`;
}

function hintOf(call: Call): string {
  if (call.surface === "token")
    return `# CLIENT_SECRET: ${call.clientId ?? "the client"}'s secret (Admin page, or your own configuration)`;
  if (!call.request.headers.authorization) return "# sent without a token";
  const context = [call.agencyId && `agency_context=${call.agencyId}`, call.username && `username=${call.username}`]
    .filter(Boolean)
    .join(" ");
  return `# TOKEN: an access token of ${call.clientId ?? "the client"}${context ? ` (${context})` : ""} from /connect/token (README, "A first call")`;
}
