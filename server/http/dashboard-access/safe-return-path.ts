// Where the dashboard's sign-in returns to: a path of this origin only (no open
// redirect). `//host` and `/\host` are other origins to a browser; control
// characters, and the sign-in paths themselves (a loop), are refused too, except the CLI's
// confirm page (/auth/cli, decision 0053), which a member signs in to reach.
export function safeReturnPath(value: string | undefined | null): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return "/";
  const cliConfirm = value === "/auth/cli" || value.startsWith("/auth/cli?");
  if ((value === "/auth" || value.startsWith("/auth/")) && !cliConfirm) return "/";
  return value;
}
