// A JSON request body as every JSON surface reads it (SECURITY.md, "Bad bytes and deep JSON"):
// bounded in depth before it is parsed, and without NUL or lone surrogates in any string. Each
// refusal is a ValidationFailed naming the field, which the surface's own serializer renders
// (problem+json on /v1 and /Account).
import type { Context } from "hono";
import { AppError } from "../platform/errors.ts";
import { parseJsonInput } from "../platform/json-input.ts";

/** What the caller sent, parsed, or a ValidationFailed AppError thrown. `c.req.json()` afterwards reads the same value. */
export async function readJsonInput(c: Context): Promise<unknown> {
  const parsed = parseJsonInput(await c.req.text());
  if (parsed.ok) return parsed.value;
  const detail =
    parsed.kind === "syntax"
      ? "The request body is not valid JSON."
      : parsed.kind === "depth"
        ? `The request body ${parsed.message}.`
        : `The request is invalid: ${parsed.field} ${parsed.message}.`;
  throw new AppError("ValidationFailed", detail, [{ field: parsed.field, message: parsed.message }]);
}
