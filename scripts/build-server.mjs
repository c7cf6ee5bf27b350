// Compiles the server entry (server/main.ts and everything it imports from this
// repository) into one ES module, dist/server/main.mjs, so `npm start` runs
// JavaScript on plain node: no TypeScript compiler at run time. Packages from
// node_modules stay external (loaded as installed). Next compiles app/ itself.
import { build } from "esbuild";

await build({
  entryPoints: { "server/main": "server/main.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20.19",
  sourcemap: "linked",
  tsconfig: "tsconfig.json",
  logLevel: "warning",
  // Some dependencies are CommonJS and call require(); an ES module has none of its own.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
});
console.log("Server compiled: dist/server/main.mjs");
