// Test helpers for `workbench login` over HTTP (decision 0053): a CLI's /auth/cli link made by hand,
// and a signed-in member's answer on the confirm page, as the browser's form would post it.
import { createHash, randomBytes } from "node:crypto";

export type CliLink = { path: string; port: number; state: string; verifier: string; challenge: string };

export function makeCliLink(options: { port?: number; hostname?: string } = {}): CliLink {
  const state = randomBytes(32).toString("base64url");
  const verifier = randomBytes(48).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const port = options.port ?? 49_152 + Math.floor(Math.random() * 10_000);
  const query = new URLSearchParams({
    port: String(port),
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    hostname: options.hostname ?? "laptop-1",
  });
  return { path: `/auth/cli?${query}`, port, state, verifier, challenge };
}

/** The hidden fields of the confirm page's form. */
export function confirmFormFields(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)].map((m) => [m[1]!, m[2]!]),
  );
}

/** GETs the confirm page with the member's session, then posts Authorize or Cancel from the workbench's origin. */
export async function answerCliLink(
  baseUrl: string,
  path: string,
  sessionCookie: string,
  decision: "authorize" | "cancel",
  /** The token role chosen on the page (default: what the page preselects). */
  role?: string,
): Promise<{ page: Response; html: string; answer: Response }> {
  const page = await fetch(`${baseUrl}${path}`, { headers: { cookie: sessionCookie }, redirect: "manual" });
  const html = await page.text();
  const answer = await fetch(`${baseUrl}/auth/cli`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: sessionCookie, origin: baseUrl },
    body: new URLSearchParams({ ...confirmFormFields(html), ...(role ? { role } : {}), decision }),
  });
  return { page, html, answer };
}

/** POST /auth/cli/token as the CLI does. */
export async function redeemCliCode(
  baseUrl: string,
  code: string,
  verifier: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/auth/cli/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code, code_verifier: verifier }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
