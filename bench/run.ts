// `npm run bench [name...]`: runs every bench/*.bench.ts (or the named ones) in
// turn and prints their figures. Each bench bounds its own load in time and
// sends it to loopback only.
import { readdir } from "node:fs/promises";
import path from "node:path";

const only = process.argv.slice(2);
const files = (await readdir(import.meta.dirname)).filter((f) => f.endsWith(".bench.ts")).sort();
console.log(`# Incident Platform Workbench benchmarks — ${new Date().toISOString()} — node ${process.version}`);
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, "");
  if (only.length && !only.includes(name)) continue;
  const mod = (await import(path.join(import.meta.dirname, file))) as { run: () => Promise<void> };
  await mod.run();
}
