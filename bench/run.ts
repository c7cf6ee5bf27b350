// `npm run bench [name...]`: runs every bench/*.bench.ts (or the named ones) in
// turn and prints their figures. Each bench bounds its own load in time and
// sends it to loopback only. A bench that fails is reported and the rest still
// run; the run then exits 1, naming the ones that failed.
import { readdir } from "node:fs/promises";
import path from "node:path";

const only = process.argv.slice(2);
const names = (await readdir(import.meta.dirname))
  .filter((f) => f.endsWith(".bench.ts"))
  .sort()
  .map((f) => f.replace(/\.bench\.ts$/, ""));
const unknown = only.filter((name) => !names.includes(name));
if (unknown.length) {
  console.error(`no bench named ${unknown.join(", ")}; the benches: ${names.join(", ")}`);
  process.exit(2);
}
console.log(`# Incident Platform Workbench benchmarks — ${new Date().toISOString()} — node ${process.version}`);
const failed: string[] = [];
for (const name of names) {
  if (only.length && !only.includes(name)) continue;
  try {
    const mod = (await import(path.join(import.meta.dirname, `${name}.bench.ts`))) as { run: () => Promise<void> };
    await mod.run();
  } catch (error) {
    failed.push(name);
    console.error(`\n## ${name}: failed`);
    console.error(error);
  }
}
if (failed.length) {
  console.error(`\n${failed.length} bench${failed.length === 1 ? "" : "es"} failed: ${failed.join(", ")}`);
  process.exit(1);
}
