// The bin runs the compiled CLI only while no source is newer than it (docs/decisions/0059).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../../..");
let root: string;
const at = (p: string) => path.join(root, p);
const run = () => execFileSync("node", [at("packages/cli/bin/workbench.mjs")], { encoding: "utf8" }).trim();
/** Sets a file's modification time `s` seconds from now. */
const age = (p: string, s: number) => utimesSync(at(p), new Date(), new Date(Date.now() + s * 1000));

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "workbench-bin-"));
  mkdirSync(at("packages/cli/bin"), { recursive: true });
  cpSync(path.join(REPO, "packages/cli/bin/workbench.mjs"), at("packages/cli/bin/workbench.mjs"));
  symlinkSync(path.join(REPO, "node_modules"), at("node_modules"));
  writeFileSync(at("package.json"), '{ "type": "module" }\n'); // as the repository's
  mkdirSync(at("server/cli"), { recursive: true });
  writeFileSync(at("server/cli/main.ts"), 'const from: string = "source";\nconsole.log(from);\n');
  mkdirSync(at("dist/cli"), { recursive: true });
  writeFileSync(at("dist/cli/main.mjs"), 'console.log("compiled");\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Each case starts node, and tsx's compile on a loaded machine can take seconds.
describe("packages/cli/bin/workbench.mjs", { timeout: 30_000 }, () => {
  it("runs the compiled CLI when it is newer than every source", () => {
    age("server/cli/main.ts", -60);
    age("server/cli", -60);
    age("server", -60);
    age("dist/cli/main.mjs", 0);
    expect(run()).toBe("compiled");
  });

  it("runs the TypeScript when a source below server/ was changed after the build", () => {
    age("server/cli/main.ts", 5);
    expect(run()).toBe("source");
  });

  it("runs the TypeScript when there is no build", () => {
    age("server/cli/main.ts", -60);
    rmSync(at("dist/cli/main.mjs"));
    expect(run()).toBe("source");
  });
});
