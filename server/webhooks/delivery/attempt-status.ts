// An attempt's outcome as a metrics label (workbench_delivery_attempts_total{status}): the HTTP
// status when the receiver answered, else one of three words. Never the error text itself: it holds
// URLs and messages, an unbounded set of label values.
import type { AttemptStatus } from "../../platform/metrics/registry.ts";
import type { AttemptRecord } from "./record-outcome.ts";

export function attemptStatus(attempt: Pick<AttemptRecord, "status" | "error">): AttemptStatus {
  if (attempt.status !== null) return attempt.status;
  const error = attempt.error ?? "";
  if (error.startsWith("timeout")) return "timeout";
  // Refused by the outbound policy (never sent) or by the receiver's host (ECONNREFUSED).
  if (error.startsWith("refused") || error.startsWith("ECONNREFUSED")) return "refused";
  return "error";
}
