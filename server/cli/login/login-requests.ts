// The CLI's three calls to a workbench's /auth/cli routes (cli-login-app.ts on the server), each
// with a 15 s timeout and one clear line when it fails. The answers are checked with zod: a proxy or
// an older workbench answering something else is said so, not half-read.
import { z } from "zod";

const TIMEOUT_MS = 15_000;

export class UnreachableError extends Error {}

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new UnreachableError(`No workbench answers at ${new URL(url).origin}.`);
  }
}

const ZMode = z.object({ access: z.enum(["local", "shared"]) });

/** Whether the workbench needs a token at all. */
export async function fetchAccessMode(base: string): Promise<"local" | "shared"> {
  const res = await call(`${base}/auth/cli/mode`);
  const parsed = ZMode.safeParse(res.ok ? await res.json().catch(() => undefined) : undefined);
  if (!parsed.success)
    throw new Error(
      `${base} answered ${res.status} to /auth/cli/mode: not a workbench that offers \`workbench login\`.`,
    );
  return parsed.data.access;
}

const ZLogin = z.object({
  token: z.string().min(1).max(200),
  id: z.string().max(100),
  name: z.string().max(100),
  role: z.string().max(20),
  member: z.string().max(100),
  expiresAt: z.string().max(40).nullable(),
});
export type RedeemedLogin = z.infer<typeof ZLogin>;

/** The code and the PKCE verifier for the API token (never logged, never in a URL). */
export async function redeemLoginCode(base: string, code: string, verifier: string): Promise<RedeemedLogin> {
  const res = await call(`${base}/auth/cli/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code, code_verifier: verifier }),
  });
  const body = (await res.json().catch(() => undefined)) as unknown;
  if (!res.ok) {
    const described = z.object({ error_description: z.string().max(300) }).safeParse(body);
    throw new Error(
      `the workbench refused the login code: ${described.success ? described.data.error_description : `HTTP ${res.status}`}`,
    );
  }
  const parsed = ZLogin.safeParse(body);
  if (!parsed.success)
    throw new Error(`the workbench's answer to the login code was not a token (HTTP ${res.status}).`);
  return parsed.data;
}

/** Revokes the token on the workbench: true if it was live, false if it was not; UnreachableError if no answer. */
export async function revokeOwnToken(base: string, token: string): Promise<boolean> {
  const res = await call(`${base}/auth/cli/revoke`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  const parsed = z
    .object({ revoked: z.boolean() })
    .safeParse(res.ok ? await res.json().catch(() => undefined) : undefined);
  if (!parsed.success) throw new UnreachableError(`${base} answered ${res.status} to the revocation.`);
  return parsed.data.revoked;
}
