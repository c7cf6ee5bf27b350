// Client authentication for the token endpoint: client_id + client_secret in the
// form body, compared in constant time against the stored scrypt hash.
//
// Measured (bench/token-endpoint.bench.ts, 2 shared cores, 32 connections): a
// request that pays scrypt N=2^14 runs at ~22 req/s (p99 1.9 s); with verified
// secrets remembered, client_credentials runs at ~350 tokens/s (p99 0.16-0.47 s
// on a loaded machine). Verified
// secrets are therefore remembered per process, keyed by SHA-256 of (stored hash,
// presented secret): rotating a secret changes the stored hash, so the old secret
// no longer finds an entry; a wrong secret is never cached and still pays scrypt.
import { createHash } from "node:crypto";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import type { Client } from "../platform/db/generated/client.ts";
import { sqlQuery } from "../platform/db/sql-transaction.ts";
import type { Env } from "../platform/env.ts";
import { devCredentialsAllowed, isSeededClientSecret, SEEDED_SECRET_REFUSED } from "./dev-credentials.ts";
import { verifyClientSecret } from "./client-secret.ts";
import { tokenError } from "./token-errors.ts";
import { processSingleton } from "../platform/process-singleton.ts";
import { rememberedClient } from "./client-cache.ts";
import type { Clock } from "../platform/clock/clock.ts";
import { recordFailedGuess, recordGoodGuess, refuseWhileWaiting } from "./guess-throttle.ts";

const CACHE_LIMIT = 1_000;

function verifiedSecrets(): Set<string> {
  return processSingleton("verified-client-secrets", () => new Set<string>());
}

async function verifySecretCached(secret: string, storedHash: string): Promise<boolean> {
  const key = createHash("sha256").update(storedHash).update("\0").update(secret).digest("base64url");
  const cache = verifiedSecrets();
  if (cache.has(key)) return true;
  const ok = await verifyClientSecret(secret, storedHash);
  if (ok) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.add(key);
  }
  return ok;
}

export type ClientRecord = Client & { agencies: Array<{ agencyId: string }> };

/**
 * Remembered per process while it hears every client change (client-cache.ts); else read by one
 * statement on the pg pool, not Prisma: the token endpoint's only query. Through Prisma (its
 * query compiler, and a second query for the include) it was a fifth of the endpoint's Node CPU.
 */
function findClient(db: DbClient, clientId: string): Promise<ClientRecord | null> {
  return rememberedClient(clientId, () => readClient(db, clientId));
}

async function readClient(db: DbClient, clientId: string): Promise<ClientRecord | null> {
  const [client] = await sqlQuery<ClientRecord>(
    db,
    Prisma.sql`
    SELECT c.id, c."displayName", c."secretHash", c.scopes, c."grantTypes", c."redirectUris", c."accessTokenLifetimeS",
      c."createdAt", c."secretRotatedAt",
      coalesce((SELECT json_agg(json_build_object('agencyId', a."agencyId"::text) ORDER BY a."agencyId")
                FROM "ClientAgency" a WHERE a."clientId" = c.id), '[]'::json) AS agencies
    FROM "Client" c WHERE c.id = ${clientId}`,
  );
  return client ?? null;
}

/**
 * A confidential client by id and secret; invalid_client (401) for any mismatch, without saying which.
 * A seeded secret (public: it is in the seed) that still matches is refused on a shared workbench
 * unless ALLOW_DEV_CREDENTIALS=true, with a description saying how to rotate it.
 * Guessing is slowed down per client_id, per (address, client_id) and per address (guess-throttle.ts,
 * decisions 0051 and 0070): while a key that refuses this attempt waits, too_many_attempts (429)
 * before the secret is looked at.
 */
export async function authenticateConfidentialClient(options: {
  db: DbClient;
  clock: Clock;
  clientId: string;
  clientSecret: string;
  source: string;
  env: Pick<Env, "ACCESS_MODE" | "ALLOW_DEV_CREDENTIALS">;
}): Promise<ClientRecord> {
  const attempt = { kind: "client" as const, subject: options.clientId, source: options.source };
  const { pairCounted } = await refuseWhileWaiting(options, attempt);
  const client = await findClient(options.db, options.clientId);
  if (!client?.secretHash || !(await verifySecretCached(options.clientSecret, client.secretHash))) {
    await recordFailedGuess(options, attempt);
    throw tokenError("InvalidClient", "The client_id or client_secret is invalid.");
  }
  await recordGoodGuess(options, attempt, { pairCounted });
  if (isSeededClientSecret(options.clientSecret) && !devCredentialsAllowed(options.env))
    throw tokenError("InvalidClient", SEEDED_SECRET_REFUSED);
  return client;
}

/** A public client (PKCE, no secret) by id. */
export async function findPublicClient(options: { db: DbClient; clientId: string }): Promise<ClientRecord> {
  const client = await findClient(options.db, options.clientId);
  if (!client || client.secretHash !== null)
    throw tokenError("InvalidClient", "The client_id is invalid for this grant.");
  return client;
}
