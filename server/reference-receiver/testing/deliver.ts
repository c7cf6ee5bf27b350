// Sends deliveries to an embedded receiver exactly as the webhook engine does:
// a Publisher token for the receiver's agency, Service-Request-Id/-Timestamp headers.
import { randomUUID } from "node:crypto";
import { mintPublisherToken } from "../../identity/service-tokens.ts";
import type { TestServer } from "../../testing/test-server.ts";
import { receiverEvents, type ReceiverEventMap } from "../receiver-events.ts";

export type DeliverOptions = {
  token?: string | null;
  requestId?: string;
  timestamp?: string;
  rawBody?: string;
  signal?: AbortSignal;
};

export function receiverClient(s: TestServer, key: string, agencyId: string) {
  let token: string | undefined;
  return {
    url: `${s.url}/receivers/${key}`,
    async token() {
      return (token ??= (await mintPublisherToken(s.runtime, agencyId)).accessToken);
    },
    async send(method: string, path: string, body?: unknown, options: DeliverOptions = {}) {
      const bearer = options.token === undefined ? await this.token() : options.token;
      const headers: Record<string, string> = {
        "service-request-id": options.requestId ?? randomUUID(),
        "service-request-timestamp": options.timestamp ?? s.runtime.clock.now().toISOString(),
      };
      if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
      if (body !== undefined || options.rawBody !== undefined) headers["content-type"] = "application/json";
      return fetch(`${s.url}/receivers/${key}${path}`, {
        method,
        headers,
        body: options.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
        signal: options.signal,
      });
    },
  };
}

/** Resolves with the next receiver:processed event matching `filter` (subscribe before sending). */
export function nextProcessed(filter: (e: ReceiverEventMap["receiver:processed"][0]) => boolean = () => true) {
  return new Promise<ReceiverEventMap["receiver:processed"][0]>((resolve) => {
    const on = (e: ReceiverEventMap["receiver:processed"][0]) => {
      if (!filter(e)) return;
      receiverEvents.off("receiver:processed", on);
      resolve(e);
    };
    receiverEvents.on("receiver:processed", on);
  });
}
