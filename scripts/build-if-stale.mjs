// `npm start` builds the Next app when no build exists or a source file is newer
// than it, so `npm install && npm start` works on a fresh clone and a second
// start does not pay for a rebuild.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// The outputs of `npm run build`: Next's app, the compiled server and its launcher.
const OUTPUTS = [".next/BUILD_ID", "dist/server/main.mjs", "dist/server/launch.cjs"];
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

const built = OUTPUTS.every((o) => existsSync(o)) ? Math.min(...OUTPUTS.map((o) => statSync(o).mtimeMs)) : 0;
const changed = Math.max(...SOURCES.map(newestMtime));
if (built && built >= changed) {
  console.log("Next build is up to date.");
} else {
  console.log(
    built
      ? "Sources changed since the last build: building…"
      : "No build yet: type-checking, building the dashboard and compiling the server (about 40 s)…",
  );
  execFileSync("npm", ["run", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
}
