// Builds the workbench when no build exists or a source file is newer than it, so
// `npm install && npm start` works on a fresh clone and a second start does not pay
// for a rebuild. `npm start` (scripts/start.cjs) calls it in its own process; the
// test and bench scripts run this file.
//
// CommonJS and synchronous only: scripts/start.cjs loads the server's launcher right
// after it, and nothing may have queued work to libuv's thread pool before that
// (server/platform/thread-pool-priority.ts); synchronous file calls do not.
const { execFileSync } = require("node:child_process");
const { existsSync, readdirSync, statSync } = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
// The outputs of `npm run build`: Next's app, the compiled server and its launcher, the compiled CLI.
const OUTPUTS = [
  ".next/BUILD_ID",
  "dist/server/main.mjs",
  "dist/server/next-thread.mjs",
  "dist/server/launch.cjs",
  "dist/cli/main.mjs",
];
const SOURCES = [
  "app",
  "server",
  "public",
  "prisma/schema.prisma",
  "next.config.mjs",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
  "scripts/build-server.mjs",
];
const SKIP = new Set(["node_modules", ".next", "generated"]);

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) if (!SKIP.has(entry)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function buildIfStale() {
  const at = (p) => path.join(ROOT, p);
  const built = OUTPUTS.every((o) => existsSync(at(o))) ? Math.min(...OUTPUTS.map((o) => statSync(at(o)).mtimeMs)) : 0;
  const changed = Math.max(...SOURCES.map((s) => newestMtime(at(s))));
  if (built && built >= changed) {
    console.log("Next build is up to date.");
    return;
  }
  console.log(
    built
      ? "Sources changed since the last build: building…"
      : "No build yet: type-checking, building the dashboard and compiling the server (about 40 s)…",
  );
  try {
    execFileSync("npm", ["run", "build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
  } catch {
    // npm has printed what failed.
    console.error("\nThe build failed (see above).");
    process.exit(1);
  }
}

module.exports = { buildIfStale };

if (require.main === module) buildIfStale();
