// Who is calling the dashboard (pages and /api/trpc): in local mode the one
// developer on the machine (acting as admin); in shared mode a member with a live
// session cookie, or a script with an API token (`Authorization: Bearer wbt_…`).
import type { Runtime } from "../../runtime.ts";
import { findApiToken } from "./api-tokens.ts";
import type { Caller } from "./roles.ts";
import { findWorkbenchSession, readCookie, WORKBENCH_SESSION_COOKIE } from "./sessions.ts";

export type CallerResolution = { caller: Caller } | { refused: "no_credentials" | "bad_token" | "no_session" };

export const LOCAL_CALLER: Caller = { kind: "local", role: "admin", name: "local" };

export async function resolveCaller(
  runtime: Pick<Runtime, "db" | "clock" | "env">,
  headers: Headers,
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
  const sessionId = readCookie(headers.get("cookie"), WORKBENCH_SESSION_COOKIE);
  if (!sessionId) return { refused: "no_credentials" };
  const session = await findWorkbenchSession({ ...runtime, sessionId });
  return session
    ? { caller: { kind: "member", role: session.role, name: session.username, memberId: session.memberId } }
    : { refused: "no_session" };
}

/** The one line a refused caller reads (tRPC UNAUTHORIZED message; the CLI prints it as is). */
export function describeRefusal(refused: "no_credentials" | "bad_token" | "no_session"): string {
  if (refused === "bad_token") return "The API token was refused (unknown, revoked or expired): check WORKBENCH_TOKEN.";
  if (refused === "no_session") return "Your workbench session has ended: sign in again.";
  return "This workbench is shared: sign in, or send an API token (set WORKBENCH_TOKEN for the CLI).";
}
