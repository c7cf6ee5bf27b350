import type { OpenAPIHono } from "@hono/zod-openapi";
import type { InboundAuth } from "./authenticate.ts";

/** Per-request values of the inbound pipeline. */
export type InboundEnv = {
  Variables: {
    auth: InboundAuth;
    traceId: string;
    authenticate: (authorization: string | undefined) => Promise<InboundAuth>;
  };
};
export type InboundApp = OpenAPIHono<InboundEnv>;

/** The actor recorded on change records made through the inbound API. */
export const inboundActor = (auth: InboundAuth) =>
  `inbound:${auth.clientId}${auth.username ? `/${auth.username}` : ""}`;
