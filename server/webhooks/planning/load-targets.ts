// The receivers of one incident inside the planning transaction: each
// recipient agency's integration, its last accepted capabilities and its lane.
import type { Prisma } from "../../platform/db/client.ts";
import type { TLocationSource } from "../../incidents/snapshot.schema.ts";
import type { V3Flag } from "../contracts/v3/capabilities.schema.ts";
import { NEW_LANE, type LaneState } from "./plan-events.ts";

export type PlanningTarget = { integrationKey: string; agencyId: string; flags: ReadonlySet<V3Flag>; lane: LaneState };

/**
 * Decision (documented in the AsyncAPI document): until an integration's /about
 * has been accepted once, events are planned for the minimal generic shape
 * (incident.created + incident.changed); they wait in the queue (up to their
 * hour) until discovery accepts the receiver. Integrations whose declared or
 * configured major version is not 3 get no v3 events (v1/v2 are later issues).
 */
export const UNDISCOVERED_FLAGS: ReadonlySet<V3Flag> = new Set(["incident.created", "incident.changed"]);

export async function loadPlanningTargets(tx: Prisma.TransactionClient, options: { incidentId: string; agencyIds: string[]; integrationKey?: string }): Promise<PlanningTarget[]> {
  const integrations = await tx.integration.findMany({
    where: { agencyId: { in: options.agencyIds }, ...(options.integrationKey ? { key: options.integrationKey } : {}) },
    orderBy: { key: "asc" },
  });
  if (!integrations.length) return [];
  const keys = integrations.map((i) => i.key);
  const capabilities = await tx.webhookCapabilities.findMany({ where: { integrationKey: { in: keys } } });
  const lanes = await tx.webhookLane.findMany({ where: { incidentId: options.incidentId, integrationKey: { in: keys } } });
  const targets: PlanningTarget[] = [];
  for (const integration of integrations) {
    const caps = capabilities.find((c) => c.integrationKey === integration.key);
    const major = caps?.majorVersion ?? integration.contractVersion;
    if (major !== 3) continue;
    const accepted = caps && caps.flags.length > 0 && caps.status !== "rejected" ? caps : undefined;
    const lane = lanes.find((l) => l.integrationKey === integration.key);
    targets.push({
      integrationKey: integration.key,
      agencyId: integration.agencyId,
      flags: accepted ? new Set(accepted.flags as V3Flag[]) : UNDISCOVERED_FLAGS,
      lane: lane ? { introduced: lane.introduced, fullTracks: lane.fullTracks as TLocationSource[] } : NEW_LANE,
    });
  }
  return targets;
}
