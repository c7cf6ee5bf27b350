// The suite's log check finds what it looks for (check-suite-logs.mjs), and names no value.
import { expect, it } from "vitest";
import { findSecrets } from "./check-suite-logs.mjs";

it("finds a seeded secret, a JWT and an API token, by line, without repeating them", () => {
  const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwYXJ0bmVyLWNhZCJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmU";
  const text = [
    '{"msg":"fine","client_secret":"[redacted]"}',
    '{"msg":"oops","detail":"partner-cad-secret"}',
    `{"msg":"bearer ${jwt}"}`,
    `{"msg":"token wbt_${"a".repeat(43)}"}`,
  ].join("\n");
  const found = findSecrets(text, "x.jsonl");
  expect(found).toEqual(["x.jsonl:2: the secret partner-cad-secret", "x.jsonl:3: a JWT", "x.jsonl:4: an API token"]);
  expect(found.join("\n")).not.toContain(jwt);
});
