// A time-ordered UUID (RFC 9562 version 7) for the ids the workbench makes by the million and keeps
// in a unique index: a delivery's requestId (sent as Service-Request-Id, the receivers' dedupe key).
// Its first 48 bits are the milliseconds of `at`, the rest random (74 bits), so ids made together
// sort together: each insert lands on the index's newest pages instead of a random page of an
// index that grows with the history (docs/decisions/0058).
import { randomUUID } from "node:crypto";

/** A version-7 UUID for the time `at` (the workbench clock's, as the row's own times are): lowercase, dashed. */
export function timeOrderedUuid(at: Date): string {
  const ms = Math.min(Math.max(0, Math.floor(at.getTime())), 0xffff_ffff_ffff);
  const time = ms.toString(16).padStart(12, "0");
  // randomUUID(): xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx from Node's pooled entropy; its variant
  // bits are already RFC 9562's, its version nibble becomes 7.
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}
