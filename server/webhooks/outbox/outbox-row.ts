// The transactional outbox's row (table WebhookDelivery) as both sides of the engine see it:
// planning writes rows (planning/write-planned-deliveries.ts), delivery claims and records them
// (delivery/). It sits below both, so neither imports the other (decision 0060): the row's columns,
// its lane, the channel that announces new rows, the contract a row was planned under.
import { Prisma } from "../../platform/db/client.ts";

/** A row as a claim returns it (and as the planning write hands a head it inserted claimed). */
export type ClaimedDelivery = {
  id: bigint;
  requestId: string;
  integrationKey: string;
  agencyId: string;
  incidentId: string;
  eventName: string;
  method: string;
  path: string;
  body: unknown;
  producedAt: Date;
  attemptCount: number;
  claimedAt: Date;
  /** The planning's span when tracing was on (decision 0054): the attempt's span is its child. */
  traceparent?: string | null;
};

/** What a claim returns of a row (alias `d`): a ClaimedDelivery. */
export const claimedColumns = Prisma.sql`d.id, d."requestId", d."integrationKey", d."agencyId", d."incidentId", d."eventName", d.method, d.path, d.body,
              d."producedAt", d."attemptCount", d."claimedAt", d.traceparent`;

/** A row as the planning write returns it. */
export type PlannedRow = {
  id: bigint;
  requestId: string;
  integrationKey: string;
  incidentId: string;
  method: string;
  path: string;
  eventName: string;
};

/** A lane (integration, incident) as a map key: a lane has at most one event in flight. */
export const laneKey = (row: { integrationKey: string; incidentId: string }) =>
  `${row.integrationKey}\n${row.incidentId}`;

/**
 * The channel a commit that planned rows NOTIFYs after it (delivery/outbox-notifier.ts), which the
 * delivery workers of other processes LISTEN on.
 */
export const OUTBOX_CHANNEL = "webhook_outbox";

/** The contract a row was planned under, from its path (/v1/…, /v2/…, /v3/…); null for any other. */
export function contractOfPath(path: string): number | null {
  const major = /^\/v([123])\//.exec(path);
  return major ? Number(major[1]) : null;
}
