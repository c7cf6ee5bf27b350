import { describe, expect, it } from "vitest";
import { failureAccount, TAIL_LINES } from "./failure-account.mjs";

const red = (text: string) => `\u001b[31m${text}\u001b[39m`;

describe("failureAccount", () => {
  it("starts at vitest's Failed Suites (a hook that failed), ahead of Failed Tests, colours and all", () => {
    const lines = [
      " ✓ a.test.ts",
      red("⎯⎯⎯ Failed Suites 1 ⎯⎯⎯"),
      " FAIL b.int.test.ts",
      red("⎯⎯ Failed Tests 2 ⎯⎯"),
      "x",
    ];
    expect(failureAccount(lines)).toEqual(lines.slice(1));
  });

  it("starts at vitest's Failed Tests, or its Unhandled Errors", () => {
    expect(failureAccount(["ok", "⎯ Failed Tests 1 ⎯", "×"])).toEqual(["⎯ Failed Tests 1 ⎯", "×"]);
    expect(failureAccount(["ok", "⎯ Unhandled Error ⎯", "at"])).toEqual(["⎯ Unhandled Error ⎯", "at"]);
  });

  it("starts at Playwright's first numbered failure after its run began", () => {
    const lines = [
      "  1) listed before the run › is not the account",
      "Running 3 tests using 1 worker",
      "  ✓  1 e2e/a.spec.ts › passes",
      "  1) e2e/b.spec.ts:7:1 › times out ────",
      "    Test timeout of 60000ms exceeded.",
    ];
    expect(failureAccount(lines)).toEqual(lines.slice(3));
  });

  it("else gives the half's last lines", () => {
    const lines = Array.from({ length: TAIL_LINES + 5 }, (_, i) => `line ${i}`);
    expect(failureAccount(lines)).toEqual(lines.slice(5));
  });
});
