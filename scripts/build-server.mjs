// Compiles the server (server/main.ts and everything it imports from this
// repository) into one ES module, dist/server/main.mjs, and its launcher
// (server/launch.ts) into dist/server/launch.cjs, so `npm start` runs JavaScript
// on plain node: no TypeScript compiler at run time. Packages from node_modules
// stay external (loaded as installed). Next compiles app/ itself.
import { build } from "esbuild";

const common = {
  outdir: "dist",
  bundle: true,
  packages: "external",
  platform: "node",
  target: "node20.19",
  sourcemap: "linked",
  tsconfig: "tsconfig.json",
  logLevel: "warning",
};

await build({
  ...common,
  entryPoints: { "server/main": "server/main.ts" },
  outExtension: { ".js": ".mjs" },
  format: "esm",
  // Some dependencies are CommonJS and call require(); an ES module has none of its own.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
});
// The launcher is CommonJS: an ES module entry has used libuv's thread pool before its first line
// runs, and the launcher must start that pool itself (server/platform/thread-pool-priority.ts).
await build({
  ...common,
  entryPoints: { "server/launch": "server/launch.ts" },
  outExtension: { ".js": ".cjs" },
  format: "cjs",
});
console.log("Server compiled: dist/server/main.mjs, started by dist/server/launch.cjs");
