// Closing: afterwards every change answers 409 IncidentClosed (spec rule 3).
// An active live video ends with the incident (its ended event comes first).
import { applyIncidentChange } from "./apply-change.ts";
import type { IncidentChangeKind } from "./change-record.ts";
import type { IncidentOperation } from "./change-types.ts";

export async function closeIncident(options: IncidentOperation) {
  return applyIncidentChange({
    ...options,
    mutate: ({ incident, now }) => {
      const closedAtUtc = now.toISOString();
      const changes: IncidentChangeKind[] = [];
      const video = incident.snapshot.caller.liveVideo;
      if (video?.state === "Active") {
        incident.snapshot.caller.liveVideo = { ...video, state: "Ended", endedAtUtc: closedAtUtc };
        changes.push({ kind: "caller.liveVideo.ended" });
      }
      changes.push({ kind: "incident.closed", closedAtUtc });
      return { changes, result: { incidentId: incident.id, closedAtUtc }, closedAt: now, liveVideoEndsAt: null };
    },
  });
}
