// The delivery export's identity and bounds, shared by the server that writes and
// replays exports and the CLI that reads them (no dependency: the CLI loads it).
export const DELIVERY_EXPORT_FORMAT = "incident-platform-workbench/delivery-export";
export const DELIVERY_EXPORT_VERSION = 1;
/** An incident's export holds at most this many deliveries (its oldest first); `truncated` says when there were more. */
export const MAX_EXPORTED_DELIVERIES = 2_000;
/** Requests one replay sends at most (an incident's export may hold more: replay it in parts). */
export const MAX_REPLAYED_REQUESTS = 500;
