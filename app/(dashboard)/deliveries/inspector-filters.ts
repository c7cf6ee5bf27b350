// The inspector's filters (pure: shared by the page, which reads them from the URL, and the client).
export type InspectorFilters = { integration: string; incident: string; state: string; q: string; selected: string };
export const EMPTY_FILTERS: InspectorFilters = { integration: "", incident: "", state: "", q: "", selected: "" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The server query for the filters: an incident id only once it is a whole UUID. */
export function toQueryInput(f: InspectorFilters) {
  const incidentId = UUID.test(f.incident.trim()) ? f.incident.trim().toLowerCase() : undefined;
  return {
    integration: f.integration || undefined,
    incidentId,
    state: (f.state || undefined) as "pending" | "delivering" | "delivered" | "expired" | undefined,
    search: f.q.trim() || undefined,
    limit: 100,
  };
}
