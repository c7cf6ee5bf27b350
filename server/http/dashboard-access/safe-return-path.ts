// Where the dashboard's sign-in returns to: a path of this origin only (no open
// redirect). `//host` and `/\host` are other origins to a browser; control
// characters, and the sign-in paths themselves (a loop), are refused too.
export function safeReturnPath(value: string | undefined | null): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return "/";
  if (value === "/auth" || value.startsWith("/auth/")) return "/";
  return value;
}
