// Who is calling the dashboard (pages and /api/trpc): in local mode the one
// developer on the machine (acting as admin); in shared mode a member with a live
// session cookie, or a script with an API token (`Authorization: Bearer wbt_…`).
//
// A member's data calls and state changes also carry the session's key (sessions.ts,
// docs/decisions/0071), which only the page that signed in holds: another port of the host can
// read and set the cookie, never the key. A page navigation cannot carry a header, so what the
// browser opens by itself (a page's shell, a document such as the conformance report) is
// `navigation`: the cookie alone. A shared workbench's pages hold no data of their own: it comes
// through tRPC, with the key.
import type { Runtime } from "../../runtime.ts";
import { findApiToken } from "./api-tokens.ts";
import type { Caller } from "./roles.ts";
import { SESSION_KEY_HEADER } from "./session-key-names.ts";
import { findWorkbenchSession, readCookies, sessionCookieName, type WorkbenchSessionView } from "./sessions.ts";

export type CallerRefusal = "no_credentials" | "bad_token" | "no_session" | "unbound_session";
export type CallerResolution = { caller: Caller } | { refused: CallerRefusal };
/** `data` (the default): a member's session needs its key; `navigation`: what a browser opens itself. */
export type CallerUse = "data" | "navigation";

export const LOCAL_CALLER: Caller = { kind: "local", role: "admin", name: "local" };

export async function resolveCaller(
  runtime: Pick<Runtime, "db" | "clock" | "env">,
  headers: Headers,
  use: CallerUse = "data",
): Promise<CallerResolution> {
  if (runtime.env.ACCESS_MODE === "local") return { caller: LOCAL_CALLER };
  const authorization = headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = match ? await findApiToken({ ...runtime, token: match[1]! }) : undefined;
    return token
      ? { caller: { kind: "api-token", role: token.role, name: token.name, tokenId: token.id } }
      : { refused: "bad_token" };
  }
  const sessionIds = readCookies(headers.get("cookie"), sessionCookieName(runtime.env.PUBLIC_URL));
  if (sessionIds.length === 0) return { refused: "no_credentials" };
  const sessionKey = headers.get(SESSION_KEY_HEADER);
  // A cookie another port set may stand beside the workbench's own: the one whose key the page holds wins.
  let live: WorkbenchSessionView | undefined;
  for (const sessionId of sessionIds) {
    const session = await findWorkbenchSession({ ...runtime, sessionId, sessionKey });
    if (session && (use === "navigation" || session.keyMatches))
      return { caller: { kind: "member", role: session.role, name: session.username, memberId: session.memberId } };
    live ??= session;
  }
  return { refused: live ? "unbound_session" : "no_session" };
}

/** The one line a refused caller reads (tRPC UNAUTHORIZED message; the CLI prints it as is). */
export function describeRefusal(refused: CallerRefusal): string {
  if (refused === "bad_token") return "The API token was refused (unknown, revoked or expired): check WORKBENCH_TOKEN.";
  if (refused === "no_session") return "Your workbench session has ended: sign in again.";
  if (refused === "unbound_session")
    return "This tab does not hold the key of the workbench session its cookie names (the sign-in was made elsewhere, or this site's storage was cleared): sign in again.";
  return "This workbench is shared: sign in, or send an API token (set WORKBENCH_TOKEN for the CLI).";
}
