// The identity server's RS256 signing keys, persisted so tokens survive restarts
// and every process signs with (and publishes) the same keys.
//
// Rotation without downtime: rotate() makes a new key current; the previous one
// stays in the JWKS until retireAfter = now + the longest access-token lifetime
// of any client, after which no unexpired token can name its kid.
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from "jose";
import { randomBytes } from "node:crypto";
import type { Clock } from "./clock/clock.ts";
import type { DbClient } from "./db/client.ts";

export const SIGNING_ALG = "RS256";

export type CurrentKey = { kid: string; privateKey: CryptoKey };
export type PublicJwk = JWK & { kid: string; alg: string; use: "sig" };

/** Re-read keys after this long, so a rotation in another process is seen promptly. */
const CACHE_MS = 5_000;

type Cached = { at: number; current: CurrentKey; jwks: PublicJwk[]; publicByKid: Map<string, CryptoKey> };

export class SigningKeyStore {
  #cached: Cached | undefined;
  #loading: Promise<Cached> | undefined;

  constructor(private readonly options: { db: DbClient; clock: Clock }) {}

  /** The key new tokens are signed with (created on first use). */
  async current(): Promise<CurrentKey> {
    return (await this.#load()).current;
  }

  /** The published JWKS: the current key and every superseded key not yet retired. */
  async jwks(): Promise<{ keys: PublicJwk[] }> {
    return { keys: (await this.#load()).jwks };
  }

  /** The public key for a kid, re-reading once on an unknown kid (another process may have rotated). */
  async publicKey(kid: string): Promise<CryptoKey | undefined> {
    let cached = await this.#load();
    if (!cached.publicByKid.has(kid)) cached = await this.#load(true);
    return cached.publicByKid.get(kid);
  }

  /** Make a new key current; the old one stays published until its tokens have expired. */
  async rotate(): Promise<{ kid: string; previousKid: string | null; previousRetiresAt: string | null }> {
    const { db, clock } = this.options;
    const now = clock.now();
    const maxLifetime = await db.client.aggregate({ _max: { accessTokenLifetimeS: true } });
    const retireAfter = new Date(now.getTime() + (maxLifetime._max.accessTokenLifetimeS ?? 3600) * 1000 + 60_000);
    const generated = await generateKey(now);
    const previous = await db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('workbench.signing-keys'))`;
      const old = await tx.signingKey.findFirst({ where: { supersededAt: null }, orderBy: { createdAt: "desc" } });
      if (old) await tx.signingKey.update({ where: { kid: old.kid }, data: { supersededAt: now, retireAfter } });
      await tx.signingKey.create({ data: generated });
      return old;
    });
    this.#cached = undefined;
    return {
      kid: generated.kid,
      previousKid: previous?.kid ?? null,
      previousRetiresAt: previous ? retireAfter.toISOString() : null,
    };
  }

  #load(force = false): Promise<Cached> {
    const fresh =
      this.#cached &&
      this.options.clock.nowMs() - this.#cached.at < CACHE_MS &&
      this.#cached.at <= this.options.clock.nowMs();
    if (fresh && !force) return Promise.resolve(this.#cached!);
    this.#loading ??= this.#read().finally(() => (this.#loading = undefined));
    return this.#loading;
  }

  async #read(): Promise<Cached> {
    const { db, clock } = this.options;
    const now = clock.now();
    let rows = await db.signingKey.findMany({
      where: { OR: [{ retireAfter: null }, { retireAfter: { gt: now } }] },
      orderBy: { createdAt: "desc" },
    });
    if (!rows.some((r) => r.supersededAt === null)) {
      // First use: create the first key under a lock, so two processes starting together agree on one.
      const generated = await generateKey(now);
      await db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('workbench.signing-keys'))`;
        if ((await tx.signingKey.count({ where: { supersededAt: null } })) === 0)
          await tx.signingKey.create({ data: generated });
      });
      rows = await db.signingKey.findMany({
        where: { OR: [{ retireAfter: null }, { retireAfter: { gt: now } }] },
        orderBy: { createdAt: "desc" },
      });
    }
    const currentRow = rows.find((r) => r.supersededAt === null)!;
    const publicByKid = new Map<string, CryptoKey>();
    for (const r of rows) publicByKid.set(r.kid, (await importJWK(r.publicJwk as JWK, SIGNING_ALG)) as CryptoKey);
    const cached: Cached = {
      at: clock.nowMs(),
      current: {
        kid: currentRow.kid,
        privateKey: (await importJWK(currentRow.privateJwk as JWK, SIGNING_ALG)) as CryptoKey,
      },
      jwks: rows.map((r) => r.publicJwk as PublicJwk),
      publicByKid,
    };
    this.#cached = cached;
    return cached;
  }
}

async function generateKey(now: Date) {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true, modulusLength: 2048 });
  const kid = `${now.toISOString().slice(0, 10)}-${randomBytes(6).toString("hex")}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALG, use: "sig" };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG };
  return { kid, publicJwk, privateJwk, createdAt: now };
}
