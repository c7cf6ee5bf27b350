// Step 1 of a pipeline with a body: 413 over 64 KiB (before reading it all),
// 415 unless application/json, 400 ValidationFailed for malformed JSON, JSON nested too deep, or
// a string with NUL or a lone surrogate (read-json-input.ts), naming the field.
// Operations without a body ignore an empty one but still refuse a non-JSON one.
import { createMiddleware } from "hono/factory";
import { AppError } from "../../platform/errors.ts";
import { limitRequestBody } from "../limit-request-body.ts";
import type { InboundEnv } from "./inbound-env.ts";
import { readJsonInput } from "../read-json-input.ts";

/** Maximum request body (a workbench decision; the spec leaves sizes open). */
export const MAX_BODY_BYTES = 64 * 1024;

const tooLarge = () => {
  throw new AppError("RequestTooLarge", `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
};
const isJson = (type: string | undefined) => !!type && /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type.trim());
const hasBody = (h: (n: string) => string | undefined) =>
  Number(h("content-length") ?? 0) > 0 || h("transfer-encoding") !== undefined;

/** 413 RequestTooLarge (problem+json) over MAX_BODY_BYTES, before the body is read. */
export const limitBody = limitRequestBody<InboundEnv>({ maxBytes: MAX_BODY_BYTES, onTooLarge: tooLarge });

export function acceptJson(options: { bodyRequired: boolean }) {
  return createMiddleware<InboundEnv>(async (c, next) => {
    const type = c.req.header("content-type");
    const header = (n: string) => c.req.header(n);
    if (!options.bodyRequired && !hasBody(header) && !type) return next();
    if (!isJson(type)) {
      if (!options.bodyRequired && !hasBody(header)) return next();
      throw new AppError("UnsupportedMediaType", "The request body must be application/json.");
    }
    if (!options.bodyRequired && (await c.req.text()).trim() === "") return next();
    // Checked here; the schema validator then reads the same text (Hono keeps it) with c.req.json().
    await readJsonInput(c);
    await next();
  });
}

/** The steps of an operation after authorize (operations/scoped-route.ts): the body's bound, then its type. */
export const bodySteps = (bodyRequired: boolean) => [limitBody, acceptJson({ bodyRequired })];
