// `workbench login [--url URL]` and `workbench logout [--url URL]` (decision 0053): an API token
// for a shared workbench through the browser, kept in the user's config folder
// (login/credentials-store.ts) and used whenever WORKBENCH_TOKEN is unset.
import type { Command } from "commander";
import { DEFAULT_WORKBENCH_URL } from "../client.ts";
import { fail, print, type OutputMode } from "../output.ts";
import { CliUsageError, usageError } from "../parse-options.ts";
import { parseDuration } from "../../platform/time/parse-duration.ts";
import { credentialsPath, forgetLogin, lastLoginUrl, workbenchKey } from "../login/credentials-store.ts";
import { logIn, LOGIN_TIMEOUT_MS } from "../login/log-in.ts";
import { revokeOwnToken, UnreachableError } from "../login/login-requests.ts";

function chosenUrl(option: string | undefined): string {
  const url = option ?? process.env.WORKBENCH_URL ?? lastLoginUrl() ?? DEFAULT_WORKBENCH_URL;
  try {
    return workbenchKey(url);
  } catch {
    throw usageError("--url", url, "an http:// or https:// URL");
  }
}

function timeoutOf(text: string | undefined): number {
  if (text === undefined) return LOGIN_TIMEOUT_MS;
  const ms = parseDuration(text);
  if (ms === undefined || ms < 1000 || ms > 3600_000)
    throw usageError("--timeout", text, "a duration from 1s to 1h, e.g. 5m");
  return ms;
}

export function registerLoginCommands(program: Command) {
  const modeOf = (): OutputMode => ({ json: Boolean(program.opts().json) });
  const guard = (fn: (mode: OutputMode) => Promise<void>) => async () => {
    const mode = modeOf();
    try {
      await fn(mode);
    } catch (error) {
      fail(mode, error instanceof Error ? error.message : String(error), error instanceof CliUsageError ? 2 : 1);
    }
  };
  program
    .command("login")
    .description("get an API token for a shared workbench through the browser, stored for the CLI")
    .option("--url <url>", "the workbench (default: WORKBENCH_URL, else the last login's)")
    .option("--no-browser", "print the link instead of opening a browser")
    .option("--timeout <duration>", "how long to wait for the browser", "5m")
    .action((opts: { url?: string; browser: boolean; timeout?: string }) =>
      guard(async (mode) => {
        const outcome = await logIn({
          url: chosenUrl(opts.url),
          browser: opts.browser,
          timeoutMs: timeoutOf(opts.timeout),
          say: (line) => process.stderr.write(`${line}\n`),
        });
        if (outcome.kind === "local")
          return print(
            mode,
            { ...outcome, tokenNeeded: false },
            () => `The workbench at ${outcome.url} is in local mode: no token is needed.`,
          );
        print(
          mode,
          outcome,
          () =>
            `Logged in to ${outcome.url} as ${outcome.member} (role ${outcome.role}).\n` +
            `API token "${outcome.name}" stored in ${outcome.credentials}` +
            `${outcome.expiresAt ? `; it expires ${outcome.expiresAt}` : ""}.`,
        );
      })(),
    );
  program
    .command("logout")
    .description("revoke the stored API token of a workbench and forget it")
    .option("--url <url>", "the workbench (default: WORKBENCH_URL, else the last login's)")
    .action((opts: { url?: string }) =>
      guard(async (mode) => {
        const url = chosenUrl(opts.url);
        const removed = forgetLogin(url);
        if (!removed) return fail(mode, `not logged in to ${url} (nothing stored in ${credentialsPath()}).`);
        let revoked: boolean | "unreachable";
        try {
          revoked = await revokeOwnToken(url, removed.token);
        } catch (error) {
          if (!(error instanceof UnreachableError)) throw error;
          revoked = "unreachable";
        }
        print(mode, { url, revoked, tokenId: removed.tokenId }, () =>
          revoked === "unreachable"
            ? `Forgot the token of ${url}, but could not reach it to revoke the token: an admin can revoke "${removed.name}" (${removed.tokenId}) on the Admin page.`
            : `Logged out of ${url}: the token is ${revoked ? "revoked" : "no longer live there (revoked or expired already)"} and forgotten.`,
        );
      })(),
    );
}
