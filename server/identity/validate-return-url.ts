// LoginUserByToken rules 4-5: returnUrl may be a local path, or an absolute
// http(s) URL of a configured application origin (PUBLIC_URL, PORTAL_URL). Every
// other value is rejected (the caller then redirects to `/`). Open-redirect tricks
// this refuses (see the table test): protocol-relative `//host` and `/\host`,
// backslashes anywhere (browsers read them as `/`), scheme-only `https:host`,
// userinfo (`https://portal@evil`, `https://evil@portal`), control characters and
// whitespace (browsers strip tabs/newlines inside URLs), the same tricks
// percent-encoded once or twice, and non-HTTP schemes (javascript:, data:, ...).
//
// Returns the URL to redirect to (normalized), or undefined when rejected.

const MAX_LENGTH = 2048;
/** C0 controls, DEL, and any Unicode whitespace (including NBSP, line/paragraph separators). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const UNSAFE_CHARS = /[\u0000-\u001f\u007f\s\\]/u;
const LOCAL_BASE = "http://return-url.invalid";

/** Decodes up to three times, so `%252F%252F` is judged as `//`. Undefined for malformed escapes. */
function decodedForms(value: string): string[] | undefined {
  const forms = [value];
  let current = value;
  for (let i = 0; i < 3 && current.includes("%"); i++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    forms.push(current);
  }
  return forms;
}

function isLocalPath(value: string): string | undefined {
  // A path of this origin: one leading slash, never two (protocol-relative).
  if (!value.startsWith("/") || value.startsWith("//")) return undefined;
  const url = new URL(value, LOCAL_BASE);
  if (url.origin !== LOCAL_BASE) return undefined;
  // Dot segments can normalize `/.//evil` into `//evil`; refuse those too.
  if (url.pathname.startsWith("//")) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

function isAllowedAbsolute(value: string, allowedOrigins: string[]): string | undefined {
  if (!/^https?:\/\/[^/]/i.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  if (!allowedOrigins.some((o) => new URL(o).origin === url.origin)) return undefined;
  return url.href;
}

export function validateReturnUrl(value: string | undefined | null, allowedOrigins: string[]): string | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return undefined;
  const forms = decodedForms(value);
  if (!forms) return undefined;
  for (const form of forms) {
    if (UNSAFE_CHARS.test(form)) return undefined;
    if (form.startsWith("//")) return undefined;
  }
  return value.startsWith("/") ? isLocalPath(value) : isAllowedAbsolute(value, allowedOrigins);
}
