// Typed lifecycle events of the webhook engine (CONTRIBUTING.md, 'Typed lifecycle events'): the
// dashboard's live view and the tests listen here instead of polling or
// sleeping. On a globalThis slot: Next bundles app/ separately, and both copies
// must share one emitter.
import { EventEmitter } from "node:events";
import { processSingleton } from "../platform/process-singleton.ts";

export type DeliveryRef = {
  deliveryId: string;
  requestId: string;
  integrationKey: string;
  incidentId: string;
  method: string;
  path: string;
};

export type WebhookEvents = {
  "delivery:planned": [DeliveryRef & { eventName: string }];
  "delivery:attempted": [
    DeliveryRef & {
      workerId: string;
      attempt: number;
      status: number | null;
      error: string | null;
      durationMs: number;
      /** When the event is tried again (workbench clock); null when the attempt settled it. */
      retryAt: Date | null;
    },
  ];
  "delivery:delivered": [DeliveryRef & { attempts: number }];
  "delivery:expired": [DeliveryRef & { attempts: number }];
  /** A queued append became a whole-track PUT because the whole track before it expired (decide-expired-track.ts). */
  "delivery:rewritten": [DeliveryRef & { eventName: string; afterExpired: string }];
  /**
   * Never sent (again): the integration's accepted declaration is of another major version
   * (Versioning rule 3, decision 0049); the incident goes anew under `acceptedMajor`.
   */
  "delivery:superseded": [DeliveryRef & { attempts: number; acceptedMajor: number }];
  /** A lane cut over to its integration's accepted major version (planning/supersede-queued-events.ts). */
  "lane:cut-over": [
    { integrationKey: string; incidentId: string; acceptedMajor: number; superseded: number; introduced: number },
  ];
  /** Not sent: the integration's /about is not accepted, so the event waits (receiver-route rule 1) until retryAt. */
  "delivery:held": [DeliveryRef & { retryAt: Date }];
  /** A lane's changes held for want of an accepted declaration were planned against it (plan-held-changes.ts). */
  "lane:held-planned": [{ integrationKey: string; incidentId: string; planned: number; expired: number }];
  "integration:discovered": [
    { integrationKey: string; status: string; version: string | null; flags: string[]; error: string | null },
  ];
  /**
   * What an integration's /about answers may have changed (an embedded receiver's capabilities
   * toggled, a listener attached or gone): discovery reads it again now (discovery-worker.ts). In
   * process only: another process's discovery finds it on its periodic check. `waitFor`: the
   * listener hands in the work it started, and the emitter awaits it before it answers (a capability
   * toggle is in force for the very next change).
   */
  "integration:about-changed": [{ integrationKey: string; waitFor?: (work: Promise<unknown>) => void }];
  /** A dispatcher-side network fault was set for an integration (admin/set-dispatcher-fault.ts). */
  "dispatcher:fault-changed": [{ integrationKey: string; mode: string }];
  /**
   * Internal: new rows may be ready (planned pending in this process); wakes the local worker.
   * `lanes` (integrationKey + "\n" + incidentId, claim-deliveries.ts `laneKey`): the rows' lanes, if known.
   */
  "outbox:wake": [lanes?: readonly string[]];
};

export function webhookEvents(): EventEmitter<WebhookEvents> {
  return processSingleton("webhook-events", () => new EventEmitter<WebhookEvents>().setMaxListeners(100));
}
