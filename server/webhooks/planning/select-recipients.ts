// Which agencies' integrations receive an incident's events (one integration
// per agency, workbench-decisions.md). Decision, documented in the AsyncAPI
// document: Owner, Pending and Accepted agencies receive every event (an
// invited agency is "newly involved" from the invitation on, so it gets the
// create-and-track sequence then, rule 6); a Declined agency receives the
// collaboration change that records its decline and nothing after it (invited
// again, it is newly involved again: plan-deliveries.ts plans it on a new lane).
import type { IncidentChange } from "../../incidents/change-record.ts";

export function selectRecipientAgencies(change: IncidentChange): string[] {
  return change.snapshot.involvedAgencies
    .filter(
      (a) =>
        a.collaboration !== "Declined" ||
        (change.kind === "involvedAgency.collaboration.changed" && change.agencyId === a.id),
    )
    .map((a) => a.id);
}
