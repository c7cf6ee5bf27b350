// Opaque credentials (sign-in tokens, session ids, authorization codes, refresh
// tokens) are 256-bit random values: a fast SHA-256 is enough to store them
// (no guessing to slow down, unlike passwords), and the database never holds one
// that could be replayed.
import { createHash, randomBytes } from "node:crypto";

export function hashOpaqueValue(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("base64url");
}

/** 32 random bytes, URL-safe. */
export function generateOpaqueValue(): string {
  return randomBytes(32).toString("base64url");
}
