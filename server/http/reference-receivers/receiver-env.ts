import type { HttpBindings } from "@hono/node-server";
import type { Connection } from "../../platform/network/in-process-origins.ts";
import type { Runtime } from "../../runtime.ts";
import type { StoredFault } from "../../directory/integration-faults.ts";

/** What the receiver app's handlers see on the Hono context. */
export type ReceiverEnv = {
  /**
   * Served by @hono/node-server: the raw request/response (for "down" and after-response work).
   * Called in-process by this process's own delivery engine: the request's connection.
   */
  Bindings: Partial<HttpBindings> & { connection?: Connection };
  Variables: {
    runtime: Runtime;
    receiverKey: string;
    agencyId: string;
    /** The path below {receiver_url}, e.g. /v3/incidents. */
    receiverPath: string;
    /** 200, or 201 under the http-201 fault. */
    successStatus: 200 | 201;
    rejectToken: boolean;
    /** The receiver's fault row (active or not: judged on the workbench clock per request). */
    storedFault: StoredFault | null;
  };
};
