// PURE: a console request (operation + filled form) as the HTTP request to send, and as curl.
import type { ConsoleOperation } from "./openapi-operations";

export type ConsoleRequest = { method: string; url: string; headers: Record<string, string>; body: string | null };

export function buildRequest(options: {
  origin: string;
  operation: ConsoleOperation;
  pathValues: Record<string, string>;
  headerValues: Record<string, string>;
  body: unknown;
  token: string | null;
}): ConsoleRequest {
  const { origin, operation, pathValues, headerValues, body, token } = options;
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? ""));
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  for (const [k, v] of Object.entries(headerValues)) if (v.trim()) headers[k.toLowerCase()] = v;
  const hasBody = operation.body !== null && body !== undefined;
  if (hasBody) headers["content-type"] = "application/json";
  return {
    method: operation.method,
    url: `${origin}${path}`,
    headers,
    body: hasBody ? JSON.stringify(body, null, 2) : null,
  };
}

/** POSIX shell single quotes: the only character to escape is the quote itself. */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function toCurl(request: ConsoleRequest): string {
  const lines = [`curl -X ${request.method} ${shellQuote(request.url)}`];
  for (const [k, v] of Object.entries(request.headers)) lines.push(`  -H ${shellQuote(`${k}: ${v}`)}`);
  if (request.body !== null) lines.push(`  --data-raw ${shellQuote(request.body)}`);
  return lines.join(" \\\n");
}

/** The token request exactly as sent (form fields), with the secret masked for display. */
export function tokenRequestCurl(origin: string, fields: Record<string, string>, { maskSecret = true } = {}): string {
  const lines = [
    `curl -X POST ${shellQuote(`${origin}/connect/token`)}`,
    `  -H 'content-type: application/x-www-form-urlencoded'`,
  ];
  for (const [k, v] of Object.entries(fields))
    if (v)
      lines.push(`  --data-urlencode ${shellQuote(`${k}=${k === "client_secret" && maskSecret ? "********" : v}`)}`);
  return lines.join(" \\\n");
}
