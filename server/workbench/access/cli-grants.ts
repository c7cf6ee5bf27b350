// `workbench login` (decision 0053): a signed-in member's Authorize on /auth/cli leaves a grant,
// a single-use code that lives two minutes and is bound to the CLI's PKCE challenge (S256,
// RFC 7636). The CLI's loopback listener receives the code and redeems it, with its verifier,
// for an API token of that member: the token itself never travels through the browser.
import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Clock } from "../../platform/clock/clock.ts";
import type { DbClient } from "../../platform/db/client.ts";
import { AppError } from "../../platform/errors.ts";
import { generateOpaqueValue, hashOpaqueValue } from "../../identity/hash-opaque-value.ts";
import { createApiToken, type ApiTokenView } from "./api-tokens.ts";
import { roleAllows, type Role } from "./roles.ts";

type Deps = { db: DbClient; clock: Clock };

export const CLI_GRANT_LIFETIME_MS = 2 * 60_000;
/** A CLI token lasts 90 days (then `workbench login` again), or until `workbench logout` or an admin revokes it. */
export const CLI_TOKEN_LIFETIME_DAYS = 90;

/** base64url of 32-96 bytes: what a CLI sends as state and verifier (RFC 7636 4.1: 43-128 characters). */
const ZOpaque = z.string().regex(/^[A-Za-z0-9_-]{43,128}$/, "43-128 base64url characters");
/** The machine the CLI runs on, as it names itself: shown on the confirm page and in the token's name. */
export const ZCliHostname = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits and . _ - only");

/** What the CLI puts in the /auth/cli link (and the confirm form sends back). */
export const ZCliAuthorizeRequest = z.object({
  /** The CLI's one-shot listener on 127.0.0.1; nothing else is ever redirected to. */
  port: z.coerce.number().int().min(1024).max(65535),
  state: ZOpaque,
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "a base64url SHA-256 (43 characters)"),
  code_challenge_method: z.literal("S256").default("S256"),
  hostname: ZCliHostname,
});
export type TCliAuthorizeRequest = z.infer<typeof ZCliAuthorizeRequest>;

export const ZCliTokenRequest = z.object({ code: ZOpaque, code_verifier: ZOpaque });

/** Where the workbench sends the browser after Authorize or Cancel: the CLI's loopback listener, only. */
export function cliCallbackUrl(port: number, params: Record<string, string>): string {
  const url = new URL(`http://127.0.0.1:${port}/callback`);
  url.search = new URLSearchParams(params).toString();
  return url.href;
}

export async function createCliGrant(
  options: Deps & { memberId: string; role: Role; request: TCliAuthorizeRequest },
): Promise<string> {
  const { db, clock, request } = options;
  const code = generateOpaqueValue();
  const now = clock.now();
  await db.workbenchCliGrant.create({
    data: {
      codeHash: hashOpaqueValue(code),
      memberId: options.memberId,
      role: options.role,
      codeChallenge: request.code_challenge,
      hostname: request.hostname,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CLI_GRANT_LIFETIME_MS),
    },
  });
  return code;
}

function verifierMatches(verifier: string, challenge: string): boolean {
  const a = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type CliLogin = ApiTokenView & { token: string; member: string };

/**
 * Spends the code (once, whatever follows: a wrong verifier spends it too) and creates the member's
 * API token, with the lesser of the role authorised and the member's role now.
 */
export async function redeemCliGrant(options: Deps & { code: string; codeVerifier: string }): Promise<CliLogin> {
  const { db, clock } = options;
  const codeHash = hashOpaqueValue(options.code);
  const now = clock.now();
  const spent = await db.workbenchCliGrant.updateMany({
    where: { codeHash, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  const grant = spent.count === 1 ? await db.workbenchCliGrant.findUnique({ where: { codeHash } }) : null;
  if (!grant) throw new AppError("InvalidGrant", "The login code is unknown, expired or used already.");
  if (!verifierMatches(options.codeVerifier, grant.codeChallenge))
    throw new AppError("InvalidGrant", "The code verifier does not match this login.");
  const member = await db.workbenchMember.findUnique({ where: { id: grant.memberId } });
  if (!member || member.disabledAt) throw new AppError("InvalidGrant", "The member who authorised this is disabled.");
  const role = roleAllows(member.role, grant.role) ? grant.role : member.role;
  const created = await createApiToken({
    db,
    clock,
    input: { name: `CLI on ${grant.hostname}`, role, expiresInDays: CLI_TOKEN_LIFETIME_DAYS },
    createdBy: member.username,
    memberId: member.id,
  });
  return { ...created, member: member.username };
}
