// What every surface checks in text it is given, before anything stores or walks it (SECURITY.md,
// "Bad bytes and deep JSON"). PostgreSQL refuses NUL (U+0000) in text and a lone UTF-16 surrogate
// (\ud800) in jsonb; either reached the database as a 500 with a stack trace that any caller
// could write into the log. A lone surrogate in a text column is worse: it is stored silently
// changed to U+FFFD. And JSON nested 100,000 deep overflowed the stack of the code that walks a
// parsed value. So each surface refuses these at its edge, in its own format, naming the field.

/** Deepest JSON any surface accepts: its largest documents (snapshots, scenario scripts) nest about ten deep. */
export const MAX_JSON_DEPTH = 64;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with one string, or null: NUL, or a lone surrogate (not well-formed UTF-16). */
export function unsafeTextProblem(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL (U+0000)";
  if (LONE_SURROGATE.test(text)) return "must not contain a lone surrogate (an unpaired \\ud800–\\udfff)";
  return null;
}

/** `text` with each NUL and lone surrogate replaced by U+FFFD: what a store keeps of text it must not refuse. */
export function toStorableText(text: string): string {
  return text.replaceAll("\u0000", "\ufffd").replace(new RegExp(LONE_SURROGATE.source, "g"), "\ufffd");
}

export type TextProblem = { field: string; message: string };

/**
 * The first unsafe string (or member name) in a parsed JSON value, named by its path
 * ("caller.label", "messages.2.text"); null when there is none. Walks at most MAX_JSON_DEPTH
 * levels, which a value parsed by parseJsonInput never exceeds.
 */
export function findUnsafeText(value: unknown, path: readonly string[] = []): TextProblem | null {
  if (typeof value === "string") {
    const message = unsafeTextProblem(value);
    return message ? { field: path.join(".") || "body", message } : null;
  }
  if (value === null || typeof value !== "object" || path.length > MAX_JSON_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, member] of Object.entries(value)) {
    const keyProblem = unsafeTextProblem(key);
    if (keyProblem) return { field: [...path, "(member name)"].join("."), message: keyProblem };
    const found = findUnsafeText(member, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** Whether JSON text nests deeper than `maxDepth` arrays and objects: one pass, before any parser walks it. */
export function jsonNestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // a backslash: skip what it escapes
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

export type JsonInputResult =
  { ok: true; value: unknown } | { ok: false; kind: "syntax" | "depth" | "text"; field: string; message: string };

/** JSON text a caller sent: parsed when it nests at most MAX_JSON_DEPTH deep and has no unsafe string. */
export function parseJsonInput(text: string): JsonInputResult {
  if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH))
    return { ok: false, kind: "depth", field: "body", message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, kind: "syntax", field: "body", message: "malformed JSON" };
  }
  const unsafe = findUnsafeText(value);
  return unsafe ? { ok: false, kind: "text", ...unsafe } : { ok: true, value };
}
