// The caller check of the Next routes that serve data or documents (SECURITY.md, "The dashboard"):
// the shared-mode gate in front of Next is not their only defence. The same rule as the tRPC
// procedures: local mode anyone; shared mode a workbench session or an API token, any role.
import "server-only";
import { getRuntime } from "@/server/runtime";
import { describeRefusal, resolveCaller } from "@/server/workbench/access/resolve-caller";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "@/server/platform/db/database-unavailable";

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(`${body}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers },
  });

/** A 401 (or 503 while the database is out of reach) for a request without a caller; null lets it through. */
export async function refuseWithoutCaller(request: Request): Promise<Response | null> {
  try {
    // A document the browser opens itself: the cookie alone (decision 0071); it holds no secret.
    const resolution = await resolveCaller(getRuntime(), request.headers, "navigation");
    return "caller" in resolution ? null : text(401, describeRefusal(resolution.refused));
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    return text(503, "The database is unavailable: the caller cannot be checked.", {
      "retry-after": String(DATABASE_RETRY_AFTER_S),
    });
  }
}
