// "Resend this delivery": one delivery's request sent again, now, to its integration's receiver,
// beside "Resend incident" (which re-plans the create-and-track sequence, Delivery rule 5). It is a
// replay of one request (replay-deliveries.ts): a fresh Service-Request-Id so the receiver's
// deduplication does not swallow it, a token minted for the integration's agency, the outbound
// policy, no retries and no lane — so it does not wait behind a failing head, and the receiver
// applies it as a new event, in whatever order relative to the lane that implies (the inspector
// says so beside the button). The answer is returned as the replay records it.
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../runtime.ts";
import { replayDeliveries } from "./replay-deliveries.ts";

export async function resendDelivery(options: { runtime: Runtime; requestId: string }) {
  const { runtime, requestId } = options;
  const d = await runtime.db.webhookDelivery.findUnique({
    where: { requestId },
    select: { integrationKey: true, method: true, path: true, body: true },
  });
  if (!d) throw new AppError("DeliveryNotFound", `No delivery with Service-Request-Id ${requestId}.`);
  const replay = await replayDeliveries({
    runtime,
    input: {
      integration: d.integrationKey,
      deliveries: [{ method: d.method as "POST" | "PUT" | "PATCH", path: d.path, body: (d.body ?? null) as never }],
    },
  });
  return { resentFrom: requestId, integration: replay.integration, step: replay.steps[0]! };
}
