// Step 1 of a pipeline with a body: 413 over 64 KiB (before reading it all),
// 415 unless application/json, 400 ValidationFailed for malformed JSON.
// Operations without a body ignore an empty one but still refuse a non-JSON one.
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { AppError } from "../../platform/errors.ts";
import type { InboundEnv } from "./inbound-env.ts";

/** Maximum request body (a workbench decision; the spec leaves sizes open). */
export const MAX_BODY_BYTES = 64 * 1024;

const tooLarge = () => { throw new AppError("RequestTooLarge", 413, `The request body exceeds ${MAX_BODY_BYTES} bytes.`); };
const isJson = (type: string | undefined) => !!type && /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(type.trim());
const hasBody = (h: (n: string) => string | undefined) => (Number(h("content-length") ?? 0) > 0) || h("transfer-encoding") !== undefined;

const limitStreamedBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });

/**
 * A declared Content-Length is checked from the header alone (Node's parser
 * reads exactly that many bytes); only a chunked body goes through hono's
 * bodyLimit, which counts the stream. Why not bodyLimit for every request: its
 * first step reads `c.req.raw.body`, which makes @hono/node-server build a full
 * fetch Request with a web stream for each request and read the body through it,
 * about a fifth of the API process's Node CPU per request (measured, docs/decisions/0008).
 */
export const limitBody = createMiddleware<InboundEnv>(async function limitBody(c, next) {
  const length = c.req.header("content-length");
  if (c.req.header("transfer-encoding") === undefined) {
    if (length === undefined) return next(); // no body at all
    return Number(length) > MAX_BODY_BYTES ? tooLarge() : next();
  }
  return limitStreamedBody(c, next);
});

export function acceptJson(options: { bodyRequired: boolean }) {
  return createMiddleware<InboundEnv>(async (c, next) => {
    const type = c.req.header("content-type");
    const header = (n: string) => c.req.header(n);
    if (!options.bodyRequired && !hasBody(header) && !type) return next();
    if (!isJson(type)) {
      if (!options.bodyRequired && !hasBody(header)) return next();
      throw new AppError("UnsupportedMediaType", 415, "The request body must be application/json.");
    }
    if (!options.bodyRequired && (await c.req.text()).trim() === "") return next();
    // Parsed once and kept by Hono (c.req.json() is cached): the schema validator reads the same value.
    await c.req.json().catch(() => {
      throw new AppError("ValidationFailed", 400, "The request body is not valid JSON.", [{ field: "body", message: "malformed JSON" }]);
    });
    await next();
  });
}
