// No text in the repository cites a tracker's issue or ticket by number: a reader of a clone cannot
// open it. Comments and docs name the spec rule or section (docs/spec/), the decision record
// (docs/decisions/) or the capability in words instead (CONTRIBUTING.md, 'Small files, written
// reasons'). Scans every file git knows of (tracked, and new files not ignored), text only.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * A citation: the word issue or ticket (either case, singular or plural), a space, a number. The verb
 * followed by a digit matches too: write the count in words, or reorder the sentence.
 */
const CITATION = /\b(issue|ticket)s? #?[0-9]+/i;

/** Never scanned: the spec is quoted as it was given; generated files are rewritten by their tools. */
const EXCLUDED = [/^docs\/spec\//, /^server\/platform\/db\/generated\//, /^package-lock\.json$/];

/**
 * Files that may still cite, and why they cannot change.
 * An applied migration is immutable: apply-migrations.ts refuses one whose checksum changed.
 */
const IMMUTABLE = new Set(["prisma/migrations/20261122071500_inspector_indexes/migration.sql"]);

function repositoryFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split("\0").filter(Boolean))].sort();
}

/** The file's text, or null for a binary file (a NUL byte in its first 8 KiB, as grep -I decides). */
function readText(file: string): string | null {
  const bytes = readFileSync(path.join(ROOT, file));
  if (bytes.subarray(0, 8192).includes(0)) return null;
  return bytes.toString("utf8");
}

/** Each line of `text` that cites, as "file:line: text". */
function findCitations(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => (CITATION.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

function scan(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of repositoryFiles()) {
    if (EXCLUDED.some((re) => re.test(file))) continue;
    if (!existsSync(path.join(ROOT, file))) continue; // deleted in the working tree, not yet staged
    const text = readText(file);
    if (text === null) continue;
    const lines = findCitations(file, text);
    if (lines.length) found.set(file, lines);
  }
  return found;
}

describe("tracker citations", () => {
  it("the pattern finds the shapes citations took, and not ordinary uses of the words", () => {
    const n = 8;
    const cites = [`(issue ${n})`, `Issue ${n}: v1/v2`, `issues ${n} and 6`, `ticket #${n}`, `ISSUE ${n}`];
    for (const line of cites) expect(findCitations("x.ts", line), line).toHaveLength(1);
    const fine = ["one line per issue", "https://github.com/prisma/prisma/issues/27403", "tissue 4", "issued 3 tokens"];
    for (const line of fine) expect(findCitations("x.ts", line), line).toEqual([]);
  });

  const found = scan();

  it("no file cites a tracker's issue or ticket number", () => {
    const offenders = [...found].filter(([file]) => !IMMUTABLE.has(file));
    const report = offenders.flatMap(([, lines]) => lines);
    expect(
      report,
      `Say the spec rule or section, the decision record or the capability instead:\n${report.join("\n")}`,
    ).toEqual([]);
  });

  it("every allowed file still cites (an entry whose citations are gone leaves the list)", () => {
    const stale = [...IMMUTABLE].filter((file) => !found.has(file));
    expect(stale, `remove from the allowlist: ${stale.join(", ")}`).toEqual([]);
  });
});
