// PURE: the inspector's attempt timeline from the rows in view. A lane's label leaves out what the
// filters already say (the integration when one is picked, the incident when one is given), and the
// title says which deliveries the lanes are.
import type { DeliveryLane } from "@/app/_components/timeline/delivery-lane";
import { describeDeliveryStatus } from "@/server/webhooks/admin/describe-delivery-status";
import type { InspectedDelivery } from "@/server/webhooks/admin/inspect-deliveries";

/** The newest rows in view drawn as lanes: forty read at a glance, more would scroll away. */
export const TIMELINE_LANES = 40;

/** What the query is narrowed to: the picked integration ("" for all) and the incident, if any. */
export type TimelineScope = { integration: string; incidentId?: string };

/** The newest TIMELINE_LANES rows (the list is newest first), oldest at the top. */
export function toTimelineLanes(rows: InspectedDelivery[], scope: TimelineScope): DeliveryLane[] {
  return rows
    .slice(0, TIMELINE_LANES)
    .reverse()
    .map((r) => ({
      requestId: r.requestId,
      producedAt: r.producedAt,
      state: r.state,
      attempts: r.attempts,
      statusLabel: describeDeliveryStatus(r, null).label,
      label: `${scope.integration ? "" : `${r.integration} · `}${r.event.replace(/^incident\./, "")}${scope.incidentId ? "" : ` · ${r.incidentId.slice(0, 8)}`}`,
    }));
}

export function timelineTitle(scope: TimelineScope, rowsInView: number): string {
  if (scope.incidentId) return "Attempt timeline of this incident";
  if (scope.integration) return `Attempt timeline of ${scope.integration}`;
  return `Attempt timeline (newest ${Math.min(TIMELINE_LANES, rowsInView)} in view)`;
}
