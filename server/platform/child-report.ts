// What a workbench started by a parent with an IPC channel (`workbench up`, `conformance
// --ephemeral`: start-ephemeral-workbench.ts) tells it: that it is serving, or that it could not
// start and whether a port it was given was taken. The parent picks free ports and starts the child;
// between the two another process can take one, and an answer on the port is then not this child's.
export type ChildReport = { event: "ready" } | { event: "failed"; portTaken: boolean };

export function isChildReport(message: unknown): message is ChildReport {
  const event = (message as { event?: unknown } | null)?.event;
  return event === "ready" || event === "failed";
}

/**
 * Whether a start-up failure was a port someone else holds: the HTTP server's (EADDRINUSE, kept as
 * the cause by create-server.ts) or the embedded PostgreSQL's (its own words in its log's last line).
 */
export function isPortTaken(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (e.code === "EADDRINUSE") return true;
    if (typeof e.message === "string" && /could not create any TCP\/IP sockets|Address already in use/.test(e.message))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
