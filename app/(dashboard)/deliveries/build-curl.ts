// PURE: an outbound webhook request, as the inspector shows it, as a cURL command to send it again
// by hand. The attempt's Authorization header was redacted when it was recorded (deliver-event.ts),
// so the command carries `$TOKEN` in its place — never a token — and says where to get one.
import { shellQuote } from "../partner-console/build-request";

export function buildCurl(request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}): string {
  const lines = [`curl -X ${request.method} ${shellQuote(request.url)}`];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === "content-length" || name.toLowerCase() === "host") continue;
    // "$TOKEN" in double quotes: the shell expands it; the rest stays literal.
    if (name.toLowerCase() === "authorization") lines.push(`-H "${name}: Bearer $TOKEN"`);
    else lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (request.body !== null && request.body !== undefined)
    lines.push(`--data-raw ${shellQuote(JSON.stringify(request.body))}`);
  return lines.join(" \\\n  ");
}
