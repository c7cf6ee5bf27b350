// Service-Request-Ids as UUID version 7 (RFC 9562): the first 48 bits are the event's production time
// in ms, the rest random (from randomUUID, which keeps its entropy pooled: the same cost per id). Ids
// made close in time sort close together, so the unique indexes that hold them (the outbox's
// requestId, each receiver record's dedupe key) take new keys at one end instead of at a random leaf:
// on a workbench with a long history a random key dirtied a leaf of its own per insert, and after
// every checkpoint wrote it whole to the WAL (docs/decisions/0057). The spec asks only for an id
// unique per delivery, kept across retries.
import { randomUUID } from "node:crypto";

const MAX_MS = 2 ** 48 - 1;

/** A v7 UUID for an instant of workbench time (`atMs`, from the Clock or a row's producedAt). */
export function timeOrderedUuid(atMs: number): string {
  const ms = Math.min(MAX_MS, Math.max(0, Math.floor(atMs)));
  const time = ms.toString(16).padStart(12, "0");
  // randomUUID(): xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx; from index 15 its random bits and variant are kept.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
