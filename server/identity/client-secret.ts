// Client secrets are stored as scrypt hashes and compared in constant time.
// Format: scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>, so parameters can be raised later.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (e, key) => (e ? reject(e) : resolve(key))),
  );

// N=2^14 costs ~25 ms on these cores: slow for guessing, fine for a token endpoint
// whose partners cache tokens (spec: "do not request one per call").
const PARAMS = { N: 16384, r: 8, p: 1 };
const KEYLEN = 32;

export async function hashClientSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(secret, salt, KEYLEN, PARAMS);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

export async function verifyClientSecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(secret, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/** A new secret for a client: 32 random bytes, URL-safe. */
export function generateClientSecret(): string {
  return randomBytes(32).toString("base64url");
}
