import { describe, expect, it } from "vitest";
import { generateClientSecret, hashClientSecret, verifyClientSecret } from "./client-secret.ts";

describe("client secrets", () => {
  it("verifies the right secret and refuses others; the hash never contains the secret", async () => {
    const secret = generateClientSecret();
    const hash = await hashClientSecret(secret);
    expect(hash).not.toContain(secret);
    expect(hash.startsWith("scrypt$")).toBe(true);
    expect(await verifyClientSecret(secret, hash)).toBe(true);
    expect(await verifyClientSecret(`${secret}x`, hash)).toBe(false);
    expect(await verifyClientSecret(secret, "plain-text")).toBe(false);
  });

  it("salts: the same secret hashes differently each time", async () => {
    expect(await hashClientSecret("a")).not.toBe(await hashClientSecret("a"));
  });
});
