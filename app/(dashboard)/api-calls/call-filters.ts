// PURE: the API calls page's filters as they live in the URL (?client=&surface=&…&call=), so a call
// can be linked from a bug report or the CLI; what each may hold, checked before it is asked for.
import type { TListCallsInput } from "@/server/client-calls/list-calls";

export const SURFACES = ["token", "v1", "account"] as const;
export const WINDOWS = ["15m", "1h", "6h", "24h"] as const;

export type CallFilters = {
  client: string;
  surface: string;
  operation: string;
  status: string;
  problem: string;
  incident: string;
  within: string;
  /** "1": only calls with advice. */
  advice: string;
  /** The selected call's id. */
  call: string;
};

export const EMPTY_FILTERS: CallFilters = {
  client: "",
  surface: "",
  operation: "",
  status: "",
  problem: "",
  incident: "",
  within: "1h",
  advice: "",
  call: "",
};

export function filtersFromParams(params: Record<string, string | string[] | undefined>): CallFilters {
  const one = (k: keyof CallFilters) => {
    const v = params[k];
    return (Array.isArray(v) ? v[0] : v)?.slice(0, 200) ?? "";
  };
  const filters = { ...EMPTY_FILTERS };
  for (const key of Object.keys(EMPTY_FILTERS) as Array<keyof CallFilters>)
    filters[key] = one(key) || EMPTY_FILTERS[key];
  return filters;
}

export type FilterErrors = Partial<Record<keyof CallFilters, string>>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function filterErrors(f: CallFilters): FilterErrors {
  const errors: FilterErrors = {};
  if (f.status && !(/^\d{3}$/.test(f.status) && Number(f.status) >= 100 && Number(f.status) <= 599))
    errors.status = "an HTTP status, 100–599";
  if (f.incident && !UUID.test(f.incident.trim())) errors.incident = "an incident id (a UUID)";
  if (f.call && !/^\d{1,19}$/.test(f.call)) errors.call = "not a call id";
  if (f.surface && !(SURFACES as readonly string[]).includes(f.surface)) errors.surface = "token, v1 or account";
  if (!(WINDOWS as readonly string[]).includes(f.within)) errors.within = "15m, 1h, 6h or 24h";
  return errors;
}

/** The list query's input: only what is valid, so a half-typed filter does not empty the list. */
export function toQueryInput(f: CallFilters): TListCallsInput {
  const errors = filterErrors(f);
  return {
    clientId: f.client.trim() || undefined,
    surface: !errors.surface && f.surface ? (f.surface as (typeof SURFACES)[number]) : undefined,
    operation: f.operation.trim() || undefined,
    status: !errors.status && f.status ? Number(f.status) : undefined,
    problemCode: f.problem.trim() || undefined,
    incidentId: !errors.incident && f.incident ? f.incident.trim().toLowerCase() : undefined,
    within: errors.within ? "1h" : (f.within as (typeof WINDOWS)[number]),
    hasAdvice: f.advice === "1" ? true : undefined,
    limit: 200,
  };
}
