// The scope list (identity/scopes.ts) and the registered /v1 operations are the same set: an
// operation the list does not name fails when the app is built (scoped-route.ts), and this holds
// the other way round — no listed operation is missing — and each operation's security and
// description name the scope the list gives it.
import { describe, expect, it } from "vitest";
import { INBOUND_SCOPES, SCOPES, scopeOfOperation, USERNAME_REQUIRED_SCOPE } from "../../../identity/scopes.ts";
import type { Runtime } from "../../../runtime.ts";
import { inboundOpenApiDocument } from "./openapi-document.ts";

type Operation = { security: Array<{ bearer: string[] }>; description: string };

const env = { BASE_URL: "http://x", AUTH_URL: "http://x", PORTAL_URL: "http://x", LIVE_VIDEO_DURATION_S: 120 };
// Building the document reads no service but the environment.
const runtime = { env, keys: {}, clock: { now: () => new Date(0) }, db: {} } as unknown as Runtime;
const document = inboundOpenApiDocument(runtime) as unknown as { paths: Record<string, Record<string, Operation>> };
const registered = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
);

describe("the /v1 operations and the scope list", () => {
  it("every operation the list names is registered, and only those", () => {
    const listed = INBOUND_SCOPES.flatMap((s) => SCOPES[s].operations);
    expect(registered.map((r) => r.name).sort()).toEqual([...listed].sort());
  });

  it.each(registered)("$name asks for the list's scope, in its security and its description", ({ name, operation }) => {
    const [method, path] = name.split(" ") as [string, string];
    const scope = scopeOfOperation(method, path)!;
    expect(operation.security[0]!.bearer.filter((s) => s !== USERNAME_REQUIRED_SCOPE)).toEqual([scope]);
    expect(operation.description).toContain(`Scope: \`${scope}\``);
  });
});
