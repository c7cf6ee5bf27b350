// One reading of a request's path for everything behind the HTTP server (SECURITY.md, "Every
// request"). The guard, the dashboard's gate and the router judge the path as sent, while Hono
// (through WHATWG URL parsing) and Next serve it normalised: `/portal/../admin` was "the portal"
// to the gate and the admin page to Next. So a path must already be in the one form every reader
// agrees on, or it is refused with 400 before anything reads it. No browser sends such a path
// (it normalises dot segments before sending), and nothing the workbench serves needs one, so a
// refusal costs a legitimate client nothing and says plainly what was wrong.

/** What is wrong with a request target's path, in one line, or null when it is canonical. */
export function nonCanonicalPath(target: string): string | null {
  // Absolute-form ("GET http://host/path") is for proxies; "*" is OPTIONS' server-wide form.
  if (!target.startsWith("/")) return "The request target must be a path starting with /.";
  const path = target.split("?", 1)[0]!;
  if (path.includes("#")) return "The request target must not contain a fragment (#).";
  if (path.includes("\\")) return "The path must not contain a backslash.";
  if (/%(?![0-9a-f]{2})/i.test(path)) return "The path has a malformed percent-encoding.";
  if (/%(2f|5c)/i.test(path)) return "The path must not contain an encoded slash or backslash (%2F, %5C).";
  if (/%00/.test(path) || hasControlCharacter(path)) return "The path must not contain control characters or NUL.";
  if (path.includes(";")) return "The path must not contain ';' (path parameters are not used here).";
  if (path.includes("//")) return "The path must not contain an empty segment (//).";
  for (const segment of path.split("/")) {
    const decoded = segment.replace(/%2e/gi, ".");
    if (decoded === "." || decoded === "..") return "The path must not contain dot segments (. or ..).";
  }
  return null;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x1f || code === 0x7f) return true;
  }
  return false;
}

/** The path a WHATWG URL parser reads from `target` (what Hono routes by): picks the refusal's format. */
export function normalisedPath(target: string): string {
  try {
    return new URL(target.startsWith("/") ? `http://workbench.invalid${target}` : target).pathname;
  } catch {
    return "/";
  }
}
