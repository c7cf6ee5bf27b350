// Reading a delivery's body in the reference receiver, bounded by what it stores. Delivery rule 4:
// answer non-200 only for a failure a retry could fix. A retry cannot make a body smaller, so a
// body past the storage bound is not refused (a 413 would stall the incident's lane for the hour
// of expiry): it is read to its end without being kept, and the caller records that it arrived,
// how large it was, and answers 200, flagged. The body is only read after the request has been
// authenticated (the route's earlier steps), so an unauthenticated sender costs no read.
import type { Context } from "hono";
import { parseJsonInput, toStorableText } from "../../platform/json-input.ts";

/** The largest body a reference receiver stores: an event carries one snapshot, usually a few KiB. */
export const MAX_STORED_DELIVERY_BYTES = 1024 * 1024;

export type DeliveryBody = { text: string } | { tooLarge: { bytes: number; limitBytes: number } };

export async function readDeliveryBody(
  c: Context,
  limitBytes: number = MAX_STORED_DELIVERY_BYTES,
): Promise<DeliveryBody> {
  const declared = c.req.header("content-length");
  // The usual case, a declared length within the bound: one read, as any route does.
  if (c.req.header("transfer-encoding") === undefined && (declared === undefined || Number(declared) <= limitBytes)) {
    const text = await c.req.text();
    const bytes = Buffer.byteLength(text);
    return bytes <= limitBytes ? { text } : { tooLarge: { bytes, limitBytes } };
  }
  return readStreamed(c.req.raw.body, limitBytes);
}

/** Keeps at most `limitBytes`; past that it drains the rest, counting, and keeps nothing. */
async function readStreamed(stream: ReadableStream<Uint8Array> | null, limitBytes: number): Promise<DeliveryBody> {
  if (!stream) return { text: "" };
  const kept: Uint8Array[] = [];
  let bytes = 0;
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    bytes += r.value.byteLength;
    if (bytes <= limitBytes) kept.push(r.value);
    else kept.length = 0;
  }
  return bytes <= limitBytes ? { text: Buffer.concat(kept).toString("utf8") } : { tooLarge: { bytes, limitBytes } };
}

/** What a too-large delivery is recorded as: its size, never its content. */
export function tooLargeRecord(tooLarge: { bytes: number; limitBytes: number }) {
  return {
    body: { tooLarge },
    anomaly: `too-large:${tooLarge.bytes} bytes (stored up to ${tooLarge.limitBytes})`,
  };
}

/**
 * A delivery's body as JSON, or, when it is not JSON the database can keep (malformed, nested past
 * MAX_JSON_DEPTH, or with NUL or a lone surrogate: json-input.ts), its start as text, flagged.
 * Either is recorded and answered 200: a retry would send the same bytes.
 */
export function parseDeliveryJson(text: string): { body: unknown; anomaly?: string } {
  if (text.trim() === "") return { body: null };
  const parsed = parseJsonInput(text);
  if (parsed.ok) return { body: parsed.value };
  const anomaly =
    parsed.kind === "syntax"
      ? "invalid-json"
      : parsed.kind === "depth"
        ? `invalid-json:${parsed.message}`
        : `unsafe-text:${parsed.field.slice(0, 100)} ${parsed.message}`;
  return { body: { unparsed: toStorableText(text.slice(0, 4_000)) }, anomaly };
}
