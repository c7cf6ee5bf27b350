#!/usr/bin/env node
// `npx workbench ...`. The compiled CLI (dist/cli/main.mjs, written by `npm run build`) when it is
// at least as new as every source it is made of: a command then starts in about 0.25 s. Otherwise
// (no build yet, or a source edited since) the TypeScript itself through tsx: about 0.7 s, and
// never stale code (docs/decisions/0059).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const compiled = path.join(root, "dist/cli/main.mjs");
// What the CLI is compiled from: the server's modules (the CLI imports some of them), the seed's
// ids, and the installed packages.
const SOURCES = ["server", "prisma/seed.ts", "package-lock.json", "tsconfig.json"];
const SKIP = new Set(["node_modules", "generated"]);

/** Whether `file`, or anything below it, was changed after `since` (ms); stops at the first. */
function changedAfter(file, since) {
  if (!existsSync(file)) return false;
  const stat = statSync(file);
  if (stat.mtimeMs > since) return true;
  if (!stat.isDirectory()) return false;
  return readdirSync(file).some((entry) => !SKIP.has(entry) && changedAfter(path.join(file, entry), since));
}

const builtAt = existsSync(compiled) ? statSync(compiled).mtimeMs : 0;
if (builtAt > 0 && !SOURCES.some((s) => changedAfter(path.join(root, s), builtAt))) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../../../server/cli/main.ts");
}
