// Which scope an operation needs is the scope list's (identity/scopes.ts, each scope's
// `operations`): an operation names its token context (Authentication rule 7), and its
// authorize step and OpenAPI security follow from its method and path. An operation the list
// does not name fails when the app is built, never open.
import type { RouteConfig } from "@hono/zod-openapi";
import { scopeOfOperation, USERNAME_REQUIRED_SCOPE } from "../../../identity/scopes.ts";
import { authorize } from "../authenticate.ts";

/** The route with the authorize step first and its security requirement: the scope, and username.required for a user. */
export function scoped<R extends RouteConfig>(context: "agency" | "user", route: R): R {
  const scope = scopeOfOperation(route.method, route.path);
  if (!scope)
    throw new Error(`${route.method.toUpperCase()} ${route.path} is no scope's operation (identity/scopes.ts)`);
  const steps = route.middleware === undefined ? [] : [route.middleware].flat();
  return {
    ...route,
    security: [{ bearer: context === "user" ? [scope, USERNAME_REQUIRED_SCOPE] : [scope] }],
    middleware: [authorize({ context, scope }), ...steps],
  };
}
