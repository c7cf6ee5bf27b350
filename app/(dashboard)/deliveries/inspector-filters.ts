// The inspector's filters (pure: shared by the page, which reads them from the URL, and the client).
// A filter the server cannot take (an incident that is neither a whole id nor its 8-character short
// form, a status that is not an HTTP status) is reported beside its field and left out of the
// query, never silently ignored while the field still shows it.
export type InspectorFilters = {
  integration: string;
  incident: string;
  state: string;
  /** An attempt's HTTP status, e.g. "503". */
  status: string;
  /** "1": only deliveries with a failed attempt. */
  failed: string;
  /** A produced-within window: 15m, 1h, 6h, 24h. */
  within: string;
  q: string;
  selected: string;
};
export const FILTER_KEYS = ["integration", "incident", "state", "status", "failed", "within", "q", "selected"] as const;
export const EMPTY_FILTERS: InspectorFilters = {
  integration: "",
  incident: "",
  state: "",
  status: "",
  failed: "",
  within: "",
  q: "",
  selected: "",
};
export const WITHIN = { "15m": "last 15 min", "1h": "last hour", "6h": "last 6 h", "24h": "last 24 h" } as const;
/** The delivery states, as the State filter offers them. */
export const STATES = ["pending", "delivering", "delivered", "expired", "superseded"] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHORT_ID = /^[0-9a-f]{8}$/i;

export type FilterErrors = Partial<Record<"incident" | "status" | "selected", string>>;

/** What is wrong with the filters as typed (or from the URL), field by field. */
export function filterErrors(f: InspectorFilters): FilterErrors {
  const errors: FilterErrors = {};
  const incident = f.incident.trim();
  if (incident && !UUID.test(incident) && !SHORT_ID.test(incident))
    errors.incident = "Not an incident id: paste a whole id or its first 8 characters.";
  const status = f.status.trim();
  if (status && !(/^\d{3}$/.test(status) && +status >= 100 && +status <= 599))
    errors.status = "An HTTP status: three digits, 100–599.";
  if (f.selected && !UUID.test(f.selected))
    errors.selected = `"${f.selected.slice(0, 60)}" is not a Service-Request-Id.`;
  return errors;
}

/** The server query for the filters: only the valid ones (filterErrors names the rest). */
export function toQueryInput(f: InspectorFilters) {
  const errors = filterErrors(f);
  const incident = f.incident.trim().toLowerCase();
  const within = f.within in WITHIN ? (f.within as keyof typeof WITHIN) : undefined;
  return {
    integration: f.integration || undefined,
    incidentId: incident && !errors.incident ? incident : undefined,
    state: STATES.find((s) => s === f.state),
    status: f.status.trim() && !errors.status ? Number(f.status.trim()) : undefined,
    failedOnly: f.failed === "1" ? true : undefined,
    within,
    search: f.q.trim() || undefined,
    limit: 100,
  };
}

/** The filters read from a URL's search parameters (unknown keys dropped). */
export function filtersFromParams(params: Record<string, string | string[] | undefined>): InspectorFilters {
  const out = { ...EMPTY_FILTERS };
  for (const k of FILTER_KEYS) {
    const v = params[k];
    if (typeof v === "string") out[k] = v.slice(0, 200);
  }
  return out;
}
