// The address a request came from, as this server's socket sees it. X-Forwarded-For is not
// read: the workbench has no trusted-proxy setting, and a caller could write any value there.
// A request served in-process (docs/decisions/0028) has no socket: "in-process".
import type { Context } from "hono";

export function remoteAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "in-process";
}
