// When a create or whole-track PUT expires, the receiver never got that track
// in full: drop it from the lane's fullTracks so the planner sends the next
// change of that source as a whole-track PUT, never an append to a track the
// receiver does not hold (rule 5). Appends already queued behind it stay: the
// spec accepts that an outage longer than the hour leaves holes (Delivery rule 5).
import type { DbClient } from "../../platform/db/client.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";
import { forgetLegacyTrack } from "./legacy-credential.ts";

export async function forgetExpiredTrack(db: DbClient, row: ClaimedDelivery): Promise<void> {
  let forget: ((sources: string[]) => string[]) | null;
  if (row.eventName === "created") forget = () => [];
  else if (row.eventName === "trackReplaced") {
    const source = (row.body as { source?: string } | null)?.source;
    forget = (sources) => sources.filter((s) => s !== source);
  } else forget = forgetLegacyTrack(row); // issue 8: v1/v2 routes
  if (!forget) return;
  const lane = await db.webhookLane.findUnique({ where: { integrationKey_incidentId: { integrationKey: row.integrationKey, incidentId: row.incidentId } } });
  if (!lane) return;
  await db.webhookLane.update({ where: { integrationKey_incidentId: { integrationKey: row.integrationKey, incidentId: row.incidentId } }, data: { fullTracks: forget(lane.fullTracks) } });
}
