import { describe, expect, it } from "vitest";
import { isValidCodeChallenge, s256Challenge, verifyPkce } from "./pkce.ts";

describe("PKCE S256", () => {
  // RFC 7636 Appendix B.
  const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
  const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

  it("matches the RFC's example", () => {
    expect(s256Challenge(verifier)).toBe(challenge);
    expect(verifyPkce({ verifier, challenge })).toBe(true);
    expect(isValidCodeChallenge(challenge)).toBe(true);
  });

  it("refuses a wrong verifier, the challenge itself (plain), and malformed verifiers", () => {
    expect(verifyPkce({ verifier: `${verifier.slice(0, -1)}Y`, challenge })).toBe(false);
    expect(verifyPkce({ verifier: challenge, challenge })).toBe(false);
    expect(verifyPkce({ verifier: "short", challenge })).toBe(false);
    expect(isValidCodeChallenge("plain-challenge")).toBe(false);
  });
});
