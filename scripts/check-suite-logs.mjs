#!/usr/bin/env node
// No secret in any log line the test suite wrote (SECURITY.md, "Secrets"). The integration tests'
// workbenches append their log lines to .test-logs/vitest-<pid>.jsonl and the end-to-end
// workbenches theirs to .test-logs/e2e-<port>.jsonl (LOG_FILE); after each half of `npm test`
// this reads them all and fails on a seeded secret, a password the tests sign in with, a JWT or an
// API token. Usage: node scripts/check-suite-logs.mjs <vitest|e2e> [dir]
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";

/** Values that must never be logged: the seed's client secrets and the tests' member passwords. */
export const SECRETS = [
  "partner-cad-secret",
  "partner-readonly-secret",
  "e2e-admin-password",
  "admin-password-for-tests",
  "casey-password-1",
  "robin-password-1",
];

/** Shapes of credentials: a signed JWT (three base64url parts, the first two JSON) and an API token. */
export const SHAPES = [
  { name: "a JWT", pattern: /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/ },
  { name: "an API token", pattern: /wbt_[A-Za-z0-9_-]{32,}/ },
];

/** The findings in one file's text: where, and what (never the value itself). */
export function findSecrets(text, file) {
  const found = [];
  text.split("\n").forEach((line, i) => {
    for (const secret of SECRETS) if (line.includes(secret)) found.push(`${file}:${i + 1}: the secret ${secret}`);
    for (const { name, pattern } of SHAPES) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${name}`);
  });
  return found;
}

function main() {
  const [half, dir = ".test-logs"] = process.argv.slice(2);
  if (half !== "vitest" && half !== "e2e") {
    console.error("usage: node scripts/check-suite-logs.mjs <vitest|e2e> [dir]");
    process.exit(2);
  }
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`${half}-`)) : [];
  if (files.length === 0) {
    console.error(`check-suite-logs: no ${half} log in ${dir}: the suite wrote none, so nothing was checked`);
    process.exit(1);
  }
  let lines = 0;
  const found = [];
  for (const file of files) {
    const text = readFileSync(path.join(dir, file), "utf8");
    lines += text.split("\n").length - 1;
    found.push(...findSecrets(text, file));
  }
  if (found.length > 0) {
    console.error(`check-suite-logs: ${found.length} log line(s) hold a secret or a token:`);
    for (const line of found.slice(0, 50)) console.error(`  ${line}`);
    process.exit(1);
  }
  console.log(`check-suite-logs: ${lines} ${half} log lines in ${files.length} files, no secret or token`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
