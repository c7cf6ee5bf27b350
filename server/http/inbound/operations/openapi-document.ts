// The /v1 OpenAPI document outside an HTTP request (dashboard docs page, tRPC):
// built from the same app, so it is the document /v1/openapi.json serves.
import type { Runtime } from "../../../runtime.ts";
import { inboundApp } from "../inbound-app.ts";
import { openApiConfig } from "./openapi-config.ts";

export function inboundOpenApiDocument(runtime: Runtime) {
  return inboundApp(runtime).getOpenAPI31Document(openApiConfig(runtime.env));
}
