// Where a failed half of `npm test` begins its own account of what failed (scripts/run-tests.mjs
// repeats it at the end of the log): vitest's failure sections, Playwright's numbered failures, or
// else the half's last lines.
import { stripVTControlCharacters } from "node:util";

export const TAIL_LINES = 60;

/** Where a half's account of its failures starts: vitest's and Playwright's own sections. */
export function failureAccount(lines) {
  const text = lines.map((l) => stripVTControlCharacters(l)); // without colours and cursor moves
  // Failed Suites (a file whose hooks or imports failed) comes before Failed Tests when both do.
  const vitest = text.findIndex((l) => /Failed (Suites|Tests) \d+|Unhandled Errors?/.test(l));
  if (vitest >= 0) return lines.slice(vitest);
  let run = -1;
  text.forEach((l, i) => {
    if (/^\s*Running \d+ tests?/.test(l)) run = i;
  });
  const playwright = text.findIndex((l, i) => i > run && /^\s+\d+\) .*›/.test(l));
  if (run >= 0 && playwright >= 0) return lines.slice(playwright);
  return lines.slice(-TAIL_LINES);
}
