// The delivery rules every contract shares, as the numbers they state (platform-interface.md,
// "Events", Delivery rules 1 and 2). The engine schedules by these (webhooks/delivery/decide-retry.ts,
// the outbox's one-hour window) and the AsyncAPI document's prose is rendered from them
// (v3/build-asyncapi.ts), so what a partner reads is what the engine does.

/** Delivery rule 2: an event is attempted for one hour from its production, then abandoned (expired). */
export const RETRY_WINDOW_MS = 60 * 60 * 1000;

/** Delivery rule 2: the first retry one second after the failure, the delay doubling each time. */
export const FIRST_RETRY_DELAY_MS = 1000;

/**
 * An attempt's total deadline: connect, send and the whole answer (the spec gives none; a workbench
 * decision, docs/webhooks.md). An attempt past it has failed and is retried.
 */
export const REQUEST_TIMEOUT_MS = 10_000;
