import type { OpenAPIHono } from "@hono/zod-openapi";

/** Who calls: the verified token's client, scopes, agency and user. */
export type InboundAuth = {
  clientId: string;
  scopes: Set<string>;
  /** agency_context, when the token has one. */
  agencyId: string | undefined;
  /** The resolved user of a user-context token (its sub). */
  userId: string | undefined;
  username: string | undefined;
};

/** Per-request values of the inbound pipeline. */
export type InboundEnv = {
  Variables: {
    auth: InboundAuth;
    /** Set when the request fails: the problem's traceId, also on its request log line. */
    traceId: string | undefined;
    authenticate: (authorization: string | undefined) => Promise<InboundAuth>;
  };
};
export type InboundApp = OpenAPIHono<InboundEnv>;

/** The actor recorded on change records made through the inbound API. */
export const inboundActor = (auth: InboundAuth) =>
  `inbound:${auth.clientId}${auth.username ? `/${auth.username}` : ""}`;
