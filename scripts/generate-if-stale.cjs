// Runs `prisma generate` only when the generated client (server/platform/db/generated) is missing or
// older than prisma/schema.prisma. `npm install` generates it (postinstall), so `npm run build`
// normally has nothing to do here: generating it again there, while `npm test`'s type check read
// the same files beside the build, removed them under tsc (implicit-any errors everywhere).
// `npm test` calls this before it starts its two halves, so both read one settled client.
const { execFileSync } = require("node:child_process");
const { existsSync, statSync } = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const SCHEMA = path.join(ROOT, "prisma/schema.prisma");
const GENERATED = path.join(ROOT, "server/platform/db/generated/client.ts");

function generateIfStale() {
  if (existsSync(GENERATED) && statSync(GENERATED).mtimeMs >= statSync(SCHEMA).mtimeMs) {
    console.log("Prisma client is up to date.");
    return;
  }
  execFileSync("npx", ["prisma", "generate"], { cwd: ROOT, stdio: "inherit" });
}

module.exports = { generateIfStale };

if (require.main === module) generateIfStale();
