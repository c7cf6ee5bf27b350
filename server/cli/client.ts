// The CLI talks to a running workbench (WORKBENCH_URL) through the dashboard's
// own tRPC API, so every command sees exactly what the dashboard sees. A shared
// workbench needs an API token: WORKBENCH_TOKEN, sent as `Authorization: Bearer`, or else the
// one `workbench login` stored for that URL (login/credentials-store.ts; decision 0053).
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../api/root.ts";
import { optionName } from "./option-names.ts";
import { lastLoginUrl, storedToken } from "./login/credentials-store.ts";

export const DEFAULT_WORKBENCH_URL = "http://localhost:3000";

export function workbenchUrl(): string {
  return (process.env.WORKBENCH_URL ?? lastLoginUrl() ?? DEFAULT_WORKBENCH_URL).replace(/\/+$/, "");
}

export function workbenchToken(baseUrl = workbenchUrl()): string | undefined {
  return process.env.WORKBENCH_TOKEN?.trim() || storedToken(baseUrl);
}

export function createWorkbenchClient(baseUrl = workbenchUrl()) {
  const token = workbenchToken(baseUrl);
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/api/trpc`,
        transformer: superjson,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

export type WorkbenchClient = ReturnType<typeof createWorkbenchClient>;

/** A one-line, human explanation of a failed call. */
export function describeFailure(error: unknown, baseUrl = workbenchUrl()): string {
  if (error instanceof TRPCClientError) {
    const cause = (error.cause as { code?: string; cause?: { code?: string } } | undefined) ?? {};
    const code = cause.code ?? cause.cause?.code;
    if (code === "ECONNREFUSED" || /fetch failed/i.test(error.message)) {
      return `No workbench answers at ${baseUrl}. Start one with \`npm start\`, or set WORKBENCH_URL.`;
    }
    const status = (error.data as { code?: string } | undefined)?.code;
    if (status === "UNAUTHORIZED") {
      if (process.env.WORKBENCH_TOKEN?.trim())
        return `The workbench at ${baseUrl} refused WORKBENCH_TOKEN (unknown, revoked or expired): ask an admin for a new API token.`;
      return workbenchToken(baseUrl)
        ? `The workbench at ${baseUrl} refused the token of \`workbench login\` (revoked or expired): run \`workbench login --url ${baseUrl}\` again.`
        : `The workbench at ${baseUrl} is shared: run \`workbench login --url ${baseUrl}\`, or set WORKBENCH_TOKEN to an API token (an admin creates one on the Admin page or with \`workbench tokens create\`).`;
    }
    const issues = (
      error.data as
        { zodIssues?: Array<{ path: string; message: string; got?: string; takes?: string }> | null } | undefined
    )?.zodIssues;
    // A refused input: each issue under the option the user typed, with what it got and what it takes.
    if (issues?.length)
      return issues
        .map((i) =>
          i.takes
            ? `${optionName(i.path)}: got ${i.got}, takes ${i.takes}`
            : `${optionName(i.path)}: ${i.message.replace(/^[^:]*: /, "")}`,
        )
        .join("; ");
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
