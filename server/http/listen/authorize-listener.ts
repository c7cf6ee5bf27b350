// Who may attach a listener (docs/listen.md): in local mode the one developer; in shared mode an
// integrator or admin, by API token (the CLI's WORKBENCH_TOKEN) or dashboard session. Named
// steps, each answering with the workbench's error table: parse the query, authenticate,
// authorize, find the integration. The same check runs again on the open connection
// (`recheckListener`), so a revoked token or a demoted member detaches within seconds.
import type http from "node:http";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../runtime.ts";
import { describeRefusal, resolveCaller } from "../../workbench/access/resolve-caller.ts";
import { roleAllows, type Caller } from "../../workbench/access/roles.ts";

export const LISTEN_PATH = "/api/listen";

const ZListenQuery = z.object({
  integration: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "an integration key (letters, digits, - and _)"),
  /** Where the CLI forwards to: shown on the dashboard, never connected to by the workbench. */
  forward_to: z.string().trim().min(1).max(2_000).default("(not given)"),
});
export type ListenRequest = { integrationKey: string; forwardTo: string; caller: Caller };

export function headersOf(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  return headers;
}

export async function authorizeListener(runtime: Runtime, req: http.IncomingMessage): Promise<ListenRequest> {
  const query = parseQuery(req);
  const caller = await authenticate(runtime, headersOf(req));
  authorize(caller);
  const integration = await runtime.db.integration.findUnique({
    where: { key: query.integration },
    select: { key: true },
  });
  if (!integration) throw new AppError("IntegrationNotFound", `No integration "${query.integration}".`);
  return { integrationKey: integration.key, forwardTo: query.forward_to, caller };
}

/** Null while the caller may still listen; else the one line why not. */
export async function recheckListener(runtime: Runtime, headers: Headers): Promise<string | null> {
  try {
    authorize(await authenticate(runtime, headers));
    return null;
  } catch (e) {
    if (e instanceof AppError) return e.message;
    throw e;
  }
}

function parseQuery(req: http.IncomingMessage) {
  const url = new URL(req.url ?? "/", "http://workbench");
  const parsed = ZListenQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success)
    throw new AppError(
      "ValidationFailed",
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  return parsed.data;
}

async function authenticate(runtime: Runtime, headers: Headers): Promise<Caller> {
  const resolution = await resolveCaller(runtime, headers);
  if ("refused" in resolution) throw new AppError("AuthenticationRequired", describeRefusal(resolution.refused));
  return resolution.caller;
}

function authorize(caller: Caller): void {
  if (!roleAllows(caller.role, "integrator"))
    throw new AppError(
      "ListenNotAllowed",
      `Listening needs the integrator role; ${caller.name} has the ${caller.role} role.`,
    );
}
