// The frames of a `workbench listen` connection (docs/listen.md, decision 0052): JSON text, one
// object a frame. The workbench sends `attached` once and a `request` per delivery or discovery
// call; the listener answers each request once, by its id, or asks to `detach`. Everything the
// listener sends is bounded and validated here before it is believed.
import { z } from "zod";
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from "../../platform/json-input.ts";

/** The largest frame either side accepts: a 64 KiB body escaped in JSON, headers and room to spare. */
export const MAX_FRAME_BYTES = 512 * 1024;
const MAX_HEADERS = 100;
const MAX_HEADER_VALUE_CHARS = 8 * 1024;

const ZHeaders = z
  .record(z.string().max(256), z.string().max(MAX_HEADER_VALUE_CHARS))
  .refine((h) => Object.keys(h).length <= MAX_HEADERS, `at most ${MAX_HEADERS} headers`);

/** The receiver's answer as the listener read it (status null: it did not answer; `error` says why). */
export const ZListenerAnswer = z.object({
  type: z.literal("response"),
  id: z.number().int().positive(),
  status: z.number().int().min(100).max(599).nullable(),
  headers: ZHeaders.nullable(),
  body: z.string().max(MAX_FRAME_BYTES).nullable(),
  error: z.string().max(2_000).nullable(),
  /** The listener's own measure of its request to the receiver (display only). */
  forwardMs: z.number().int().min(0).max(600_000).optional(),
});
export type TListenerAnswer = z.infer<typeof ZListenerAnswer>;

export const ZListenerFrame = z.discriminatedUnion("type", [ZListenerAnswer, z.object({ type: z.literal("detach") })]);
export type TListenerFrame = z.infer<typeof ZListenerFrame>;

/** What the workbench sends. */
export type TWorkbenchFrame =
  | { type: "attached"; integration: string; attachmentId: string; since: string }
  | {
      type: "request";
      id: number;
      method: string;
      path: string;
      headers: Record<string, string>;
      body: string | null;
      /** How long the workbench waits for the answer. */
      deadlineMs: number;
    };

/** Close codes: the listener reconnects after anything but these (it stops and says why). */
export const LISTEN_CLOSE = {
  detached: 1000,
  stopping: 1001,
  takenOver: 4001,
  detachedElsewhere: 4002,
  credentialRefused: 4003,
  integrationGone: 4004,
  protocolViolation: 4008,
} as const;

/** Parses one frame from the listener, or says what is wrong with it. */
export function parseListenerFrame(text: string): { frame: TListenerFrame } | { problem: string } {
  // Strings may hold any byte (a local receiver's answer is recorded as U+FFFD where the database must);
  // the depth is bounded before anything walks the frame (json-input.ts).
  if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) return { problem: `a frame nested deeper than ${MAX_JSON_DEPTH}` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: "a frame that is not JSON" };
  }
  const parsed = ZListenerFrame.safeParse(json);
  if (!parsed.success) return { problem: `an invalid frame (${parsed.error.issues[0]?.message ?? "invalid"})` };
  return { frame: parsed.data };
}
