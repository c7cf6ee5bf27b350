// LoginUserByToken rules 4-5: the returnUrl table. Every hostile string must be
// refused; local paths and the configured application origins accepted.
import { describe, expect, it } from "vitest";
import { validateReturnUrl } from "./validate-return-url.ts";

const ORIGINS = ["http://localhost:3000", "https://portal.example.test"];

const HOSTILE: string[] = [
  "//evil.example",
  "///evil.example",
  "////evil.example/path",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\\/evil.example",
  "/path\\..\\..\\evil",
  "https:evil.example",
  "http:evil.example",
  "https:/evil.example",
  "https://evil.example",
  "http://localhost:3001/portal",
  "https://portal.example.test.evil.example/",
  "https://portal.example.test@evil.example/",
  "https://evil.example@portal.example.test/",
  "https://user:pass@portal.example.test/",
  "http://localhost:3000@evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "ftp://portal.example.test/",
  "file:///etc/passwd",
  "/%2F%2Fevil.example",
  "%2F%2Fevil.example",
  "/%252F%252Fevil.example",
  "/%5Cevil.example",
  "%5C%5Cevil.example",
  " //evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/%09/evil.example",
  "/%0d%0aSet-Cookie:x=1",
  "\u0000/portal",
  "/portal\u0000",
  "/\u00a0/evil.example",
  "/\u2028/evil.example",
  "/.//evil.example",
  "/./../..//evil.example",
  "portal",
  "evil.example",
  "https://portal.example.test\\@evil.example",
  "%",
  "/%E0%A4%A",
  "",
  `/${"a".repeat(3000)}`,
];

describe("validateReturnUrl", () => {
  it.each(HOSTILE)("refuses %j", (value) => {
    expect(validateReturnUrl(value, ORIGINS)).toBeUndefined();
  });

  it("holds at least 25 hostile strings", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(25);
  });

  it.each([
    ["/", "/"],
    ["/portal", "/portal"],
    ["/portal?tab=incidents#top", "/portal?tab=incidents#top"],
    ["/portal/incidents/123", "/portal/incidents/123"],
    ["http://localhost:3000/portal", "http://localhost:3000/portal"],
    ["HTTP://LOCALHOST:3000/portal", "http://localhost:3000/portal"],
    ["https://portal.example.test/incidents?id=1", "https://portal.example.test/incidents?id=1"],
    ["https://portal.example.test", "https://portal.example.test/"],
  ])("accepts %j", (value, expected) => {
    expect(validateReturnUrl(value, ORIGINS)).toBe(expected);
  });

  it("refuses non-strings", () => {
    expect(validateReturnUrl(undefined, ORIGINS)).toBeUndefined();
    expect(validateReturnUrl(null, ORIGINS)).toBeUndefined();
  });
});
