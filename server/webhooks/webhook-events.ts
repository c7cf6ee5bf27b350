// Typed lifecycle events of the webhook engine (HOUSE-STYLE habit 11): the
// dashboard's live view and the tests listen here instead of polling or
// sleeping. On a globalThis slot: Next bundles app/ separately, and both copies
// must share one emitter.
import { EventEmitter } from "node:events";

export type DeliveryRef = { deliveryId: string; requestId: string; integrationKey: string; incidentId: string; method: string; path: string };

export type WebhookEvents = {
  "delivery:planned": [DeliveryRef & { eventName: string }];
  "delivery:attempted": [DeliveryRef & { workerId: string; attempt: number; status: number | null; error: string | null; durationMs: number }];
  "delivery:delivered": [DeliveryRef & { attempts: number }];
  "delivery:expired": [DeliveryRef & { attempts: number }];
  /** A queued append became a whole-track PUT because the whole track before it expired (decide-expired-track.ts). */
  "delivery:rewritten": [DeliveryRef & { eventName: string; afterExpired: string }];
  /** Not sent: the integration's /about is not accepted, so the event waits (receiver-route rule 1) until retryAt. */
  "delivery:held": [DeliveryRef & { retryAt: Date }];
  /** A lane's changes held for want of an accepted declaration were planned against it (plan-held-changes.ts). */
  "lane:held-planned": [{ integrationKey: string; incidentId: string; planned: number; expired: number }];
  "integration:discovered": [{ integrationKey: string; status: string; version: string | null; flags: string[]; error: string | null }];
  /** Internal: new rows may be ready (planned in this process); wakes the local worker. */
  "outbox:wake": [];
};

const SLOT = Symbol.for("incident-workbench.webhook-events");
const holder = globalThis as typeof globalThis & { [SLOT]?: EventEmitter<WebhookEvents> };

export function webhookEvents(): EventEmitter<WebhookEvents> {
  if (!holder[SLOT]) {
    holder[SLOT] = new EventEmitter<WebhookEvents>();
    holder[SLOT].setMaxListeners(100);
  }
  return holder[SLOT];
}
