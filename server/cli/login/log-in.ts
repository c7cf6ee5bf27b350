// `workbench login` (decision 0053): a loopback redirect with PKCE (RFC 8252, RFC 7636). The CLI
// never sees the member's password: it opens (or prints) the workbench's /auth/cli link, the member
// signs in there if need be and authorises; the workbench sends the browser to this process's
// listener with a single-use code, which the CLI redeems with its verifier for an API token.
import { createHash, randomBytes } from "node:crypto";
import os from "node:os";
import { startLoopbackCallback } from "./loopback-callback.ts";
import { openBrowser } from "./open-browser.ts";
import { fetchAccessMode, redeemLoginCode, revokeOwnToken, type RedeemedLogin } from "./login-requests.ts";
import { credentialsPath, saveLogin, workbenchKey } from "./credentials-store.ts";

export const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** This machine's name as the workbench's hostname field takes it (letters, digits, . _ -; 64 at most). */
export function cliHostname(raw = os.hostname()): string {
  const cleaned = raw
    .replace(/[^A-Za-z0-9._-]/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 64);
  return cleaned || "unknown-host";
}

export type LoginOutcome =
  | { kind: "local"; url: string }
  | ({ kind: "logged-in"; url: string; credentials: string; replacedRevoked?: boolean } & Omit<RedeemedLogin, "token">);

export async function logIn(options: {
  url: string;
  browser: boolean;
  timeoutMs: number;
  /** Where to tell the user what to do (stderr): the link, the wait. */
  say: (line: string) => void;
}): Promise<LoginOutcome> {
  const url = workbenchKey(options.url);
  if ((await fetchAccessMode(url)) === "local") return { kind: "local", url };

  const state = randomBytes(32).toString("base64url");
  const verifier = randomBytes(48).toString("base64url");
  const listener = await startLoopbackCallback(state);
  try {
    const link = new URL(`${url}/auth/cli`);
    link.search = new URLSearchParams({
      port: String(listener.port),
      state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      hostname: cliHostname(),
    }).toString();
    const opened = options.browser && openBrowser(link.href);
    options.say(
      `${opened ? "Opening your browser to log in to" : "Open this link in a browser on this computer to log in to"} ${url}:\n  ${link.href}\n` +
        `Waiting up to ${Math.round(options.timeoutMs / 60_000) || 1} min for the browser (Ctrl-C to stop).`,
    );
    const file = credentialsPath();
    const login = await listener.wait({
      timeoutMs: options.timeoutMs,
      finish: async (code) => {
        const redeemed = await redeemLoginCode(url, code, verifier);
        const { token, ...view } = redeemed;
        const previous = saveLogin(
          url,
          {
            token,
            tokenId: view.id,
            name: view.name,
            member: view.member,
            role: view.role,
            expiresAt: view.expiresAt,
            storedAt: new Date().toISOString(),
          },
          file,
        );
        return {
          result: { view, previous },
          message: `The Workbench CLI is logged in to ${url} as ${view.member} (${view.role}). You can close this tab.`,
        };
      },
    });
    // A login replaces the last one of this workbench: its token is revoked (best effort), not left behind.
    const replacedRevoked = login.previous
      ? await revokeOwnToken(url, login.previous.token).catch(() => undefined)
      : undefined;
    return {
      kind: "logged-in",
      url,
      credentials: file,
      ...login.view,
      ...(replacedRevoked === undefined ? {} : { replacedRevoked }),
    };
  } finally {
    listener.close();
  }
}
