// Sends a recorded sequence again, to another receiver: the requests of a
// delivery export (export-deliveries.ts), in their order, to an integration's
// receiver, one at a time, as the engine would (its headers, a token minted for
// that integration's agency, the outbound policy for an external URL). Each
// request is new: a fresh Service-Request-Id and timestamp (v1/v2: the body's
// requestId and requestTimeStampUtc), so a receiver's deduplication does not
// swallow it. Nothing goes through the outbox: a replay is a reproduction, not a
// delivery, so it has no retries, no lane and no hour; it stops at the first
// request not answered 200 unless asked to go on.
import { timeOrderedUuid } from "../../platform/time-ordered-uuid.ts";
import { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../runtime.ts";
import { eventRequestHeaders } from "../sending/legacy-credential.ts";
import { refusalOf, sendRequest } from "../sending/send-request.ts";
import { REQUEST_TIMEOUT_MS } from "../../webhook-contracts/delivery-rules.ts";
import { getServiceToken } from "../sending/service-token-cache.ts";
import { listenerUrlOf } from "../listen/listener-attachments.ts";
import { receiverTarget } from "../sending/receiver-url.ts";
import { MAX_REPLAYED_REQUESTS } from "./delivery-export-format.ts";

const ZReplayedRequest = z.object({
  method: z.enum(["POST", "PUT", "PATCH"]),
  path: z
    .string()
    .max(2_048)
    .regex(/^\/v[123]\/[A-Za-z0-9\-._~/]*$/, "a path below {receiver_url}, e.g. /v3/incidents/{id}/label")
    // No dot segments: /v3/../x would leave the receiver's routes once the URL is resolved.
    .refine((path) => !/(^|\/)\.{1,2}(\/|$)/.test(path), "a path below {receiver_url}, without . or .. segments"),
  body: z.json().nullable(),
});

export const ZReplayDeliveriesInput = z.object({
  /** The integration whose receiver gets the requests. */
  integration: z.string().min(1).max(64),
  deliveries: z.array(ZReplayedRequest).min(1).max(MAX_REPLAYED_REQUESTS),
  /** Send every request even after one is refused (default: stop at the first). */
  keepGoing: z.boolean().default(false),
});
export type TReplayDeliveriesInput = z.input<typeof ZReplayDeliveriesInput>;

export type ReplayStep = {
  index: number;
  method: string;
  path: string;
  requestId: string;
  status: number | null;
  durationMs: number;
  accepted: boolean;
  error: string | null;
  responseBody: string | null;
};

export async function replayDeliveries(options: { runtime: Runtime; input: TReplayDeliveriesInput }) {
  const { runtime } = options;
  const input = ZReplayDeliveriesInput.parse(options.input);
  const integration = await runtime.db.integration.findUnique({
    where: { key: input.integration },
    include: { listener: { select: { attachmentId: true } } },
  });
  if (!integration) throw new AppError("IntegrationNotFound", `No integration "${input.integration}".`);
  // An attached listener takes the replay as it takes deliveries (decision 0052).
  const routedUrl = integration.listener ? listenerUrlOf(integration.key) : integration.receiverUrl;
  const receiver = receiverTarget(routedUrl, integration.insecureDev, runtime.env);

  const steps: ReplayStep[] = [];
  for (const [index, request] of input.deliveries.entries()) {
    const producedAt = runtime.clock.now();
    const requestId = timeOrderedUuid(producedAt);
    const { headers, legacyScope } = eventRequestHeaders({ ...request, requestId, producedAt });
    const body = legacyScope ? renewLegacyIds(request.body, requestId, producedAt) : request.body;
    const url = receiver.baseUrl + request.path;
    const refusal = refusalOf(url, receiver.target);
    const result = refusal
      ? { status: null, error: refusal, durationMs: 0, bodyExcerpt: null }
      : await sendRequest({
          url,
          method: request.method,
          headers: {
            ...headers,
            authorization: `Bearer ${
              legacyScope
                ? await getServiceToken(runtime, integration.agencyId, "PsapConnector", [legacyScope])
                : await getServiceToken(runtime, integration.agencyId, "Publisher")
            }`,
          },
          body: body === null ? null : JSON.stringify(body),
          target: receiver.target,
          timeoutMs: REQUEST_TIMEOUT_MS,
        });
    const accepted = result.status === 200;
    steps.push({
      index,
      method: request.method,
      path: request.path,
      requestId,
      status: result.status,
      durationMs: result.durationMs,
      accepted,
      error: result.error ?? (accepted ? null : `HTTP ${result.status}: only 200 accepts a delivery`),
      responseBody: result.bodyExcerpt,
    });
    if (!accepted && !input.keepGoing) break;
  }
  return {
    integration: integration.key,
    receiverUrl: receiver.baseUrl,
    requested: input.deliveries.length,
    sent: steps.length,
    accepted: steps.filter((s) => s.accepted).length,
    steps,
  };
}

/** v1/v2 bodies carry the delivery's identity: a replay is a new request, so it gets a new one. */
function renewLegacyIds(body: unknown, requestId: string, producedAt: Date): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  return { ...body, requestId, requestTimeStampUtc: producedAt.toISOString() };
}
