// The error lists of docs/ and of the spec, held to the one error table (CONTRIBUTING.md,
// 'Typed errors'): a documented code is a row with the documented status, each surface's list
// is the codes that surface answers, and every row of the table is documented somewhere.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  APP_ERROR_CODES,
  APP_ERRORS,
  oauthCodeOf,
  problemCodeOf,
  problemTitleOf,
  wireCodeOf,
  type AppErrorCode,
} from "../platform/error-codes.ts";
import { TOKEN_ERROR_CODES } from "../identity/token-errors.ts";
import { PROBLEM_CODES } from "./inbound/problem.ts";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

/** The first Markdown table after the heading that starts with `heading`: one record per row, by column name. */
function tableAfter(markdown: string, heading: string): Record<string, string>[] {
  const lines = markdown.split("\n");
  const at = lines.findIndex((l) => l.startsWith(heading));
  if (at < 0) throw new Error(`No heading "${heading}".`);
  const start = lines.findIndex((l, i) => i > at && l.startsWith("|"));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith("|"));
  const cells = (line: string) =>
    line
      .slice(1, line.endsWith("|") ? -1 : undefined)
      .split("|")
      .map((c) => c.trim().replaceAll("`", ""));
  const [header, , ...rows] = lines.slice(start, end < 0 ? undefined : end).map(cells);
  return rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i] ?? ""])));
}

/** Every row of the table that goes on the wire as `wire` (named by `nameOf`: the token endpoint uses OAuth's names). */
const rowsOf = (wire: string, nameOf: (code: AppErrorCode) => string = wireCodeOf) =>
  APP_ERROR_CODES.filter((code) => nameOf(code) === wire);

/**
 * A surface's documented codes, against the rows it answers as them: each documented code and status
 * is a row's, and each row going on the wire as a documented code has its status documented with it
 * (one code may stand for rows of several statuses: InternalServerError's 500, and 503 for a
 * database outage on the spec's problem surfaces, decision 0064).
 */
function expectRows(
  documented: { wire: string; status: string; trpc?: string; title?: string }[],
  nameOf: (code: AppErrorCode) => string = wireCodeOf,
  titleOf: (code: AppErrorCode) => string = (code) => APP_ERRORS[code].title,
) {
  for (const { wire, status, trpc, title } of documented) {
    const rows = rowsOf(wire, nameOf);
    expect(rows, `"${wire}" is no code of server/platform/error-codes.ts`).not.toEqual([]);
    const atStatus = rows.filter((code) => String(APP_ERRORS[code].status) === status);
    expect(atStatus, `"${wire}" ${status}: no row of that status`).not.toEqual([]);
    for (const code of atStatus) {
      if (trpc !== undefined) expect({ wire, trpc: APP_ERRORS[code].trpc }).toEqual({ wire, trpc });
      if (title !== undefined) expect({ wire, title: titleOf(code) }).toEqual({ wire, title });
    }
    for (const code of rows)
      expect(
        documented.some((d) => d.wire === wire && d.status === String(APP_ERRORS[code].status)),
        `${code} (${APP_ERRORS[code].status}) answered as "${wire}" is not documented at its status`,
      ).toBe(true);
  }
}

const spec = read("docs/spec/platform-interface.md");
const inbound = tableAfter(read("docs/inbound-api.md"), "## Errors").map((r) => ({
  wire: r.code!,
  status: r.Status!,
  title: r.title!,
}));
const identity = read("docs/identity.md");
const token = tableAfter(identity, "### Token endpoint errors").map((r) => ({ wire: r.error!, status: r.Status! }));
const account = tableAfter(identity, "### GetUserSigninToken errors").map((r) => ({
  wire: r.code!,
  status: r.Status!,
}));
const dashboard = tableAfter(read("docs/dashboard.md"), "## Errors").map((r) => ({
  wire: r.appCode!,
  status: r.Status!,
  trpc: r["tRPC code"]!,
}));

describe("docs/inbound-api.md's codes", () => {
  it("are rows of the table, with their status and problem title", () =>
    expectRows(inbound, problemCodeOf, problemTitleOf));

  it("are every code /v1 answers (PROBLEM_CODES), each on the wire as named, at its status", () => {
    const answered = PROBLEM_CODES.map((code) => `${problemCodeOf(code)} ${APP_ERRORS[code].status}`);
    expect(inbound.map((r) => `${r.wire} ${r.status}`).sort()).toEqual(answered.sort());
    expect(PROBLEM_CODES.filter((code) => wireCodeOf(code) !== code)).toEqual([]);
  });

  it("are the spec's codes but the workbench's decisions: a database outage is the spec's InternalServerError", () => {
    const specCodes = new Set(tableAfter(spec, "### Inbound API errors").map((r) => r.code!));
    expect([...new Set(inbound.map((r) => r.wire))].filter((code) => !specCodes.has(code)).sort()).toEqual([
      "RequestTooLarge",
      "RouteNotFound",
      "TooManyRequests",
    ]);
  });

  it("hold the spec's table, with its statuses", () => {
    const specRows = tableAfter(spec, "### Inbound API errors").map((r) => ({ wire: r.code!, status: r.HTTP! }));
    expect(specRows.length).toBeGreaterThan(20);
    expect(specRows.filter((s) => !inbound.some((d) => d.wire === s.wire && d.status === s.status))).toEqual([]);
  });
});

describe("docs/identity.md's codes", () => {
  it("of the token endpoint are rows of the table, with their status", () => expectRows(token, oauthCodeOf));

  it("of the token endpoint are every code tokenError takes (TOKEN_ERROR_CODES)", () => {
    expect(token.map((r) => r.wire).sort()).toEqual(TOKEN_ERROR_CODES.map(oauthCodeOf).sort());
  });

  it("of the token endpoint hold the spec's table", () => {
    const specCodes = tableAfter(spec, "### Token endpoint errors").map((r) => r.error!);
    expect(specCodes).toContain("PSAP ID invalid");
    expect(specCodes.filter((code) => !token.some((d) => d.wire === code))).toEqual([]);
  });

  it("of GetUserSigninToken are rows of the table and hold the spec's, with its statuses", () => {
    expectRows(account, problemCodeOf);
    const specRows = tableAfter(spec, "### GetUserSigninToken errors").map((r) => ({ wire: r.Code!, status: r.HTTP! }));
    expect(specRows.length).toBeGreaterThan(5);
    expect(specRows.filter((s) => !account.some((d) => d.wire === s.wire && d.status === s.status))).toEqual([]);
  });
});

describe("docs/dashboard.md's codes", () => {
  it("are rows of the table, with their status and tRPC code", () => expectRows(dashboard));

  it("are the workbench's own: none is listed for /v1 again", () => {
    expect(dashboard.filter((d) => inbound.some((i) => i.wire === d.wire))).toEqual([]);
  });
});

it("every row of the table is documented for some surface", () => {
  const documented = new Set([...inbound, ...account, ...dashboard].map((d) => d.wire));
  for (const code of APP_ERROR_CODES)
    if (token.some((t) => t.wire === oauthCodeOf(code))) documented.add(wireCodeOf(code));
  expect(APP_ERROR_CODES.filter((code) => !documented.has(wireCodeOf(code)))).toEqual([]);
});
