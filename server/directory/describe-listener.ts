// An integration's attached listener as the dashboard shows it (docs/listen.md): who attached it,
// since when, from where, where it forwards, and whether a workbench process holds its connection
// now (its holder refreshes seenAt every few seconds; a crashed holder's row goes stale).
import type { Clock } from "../platform/clock/clock.ts";

/** A holder not seen for this long is taken for gone (listener-attachments.ts refreshes every 2 s). */
export const LISTENER_STALE_MS = 10_000;

type Row = {
  callerKind: string;
  callerName: string;
  callerRole: string;
  remoteAddress: string;
  forwardTo: string;
  attachedAt: Date;
  processId: string | null;
  seenAt: Date | null;
  disconnectedAt: Date | null;
};

export type ListenerView = {
  by: string;
  role: string;
  kind: string;
  since: string;
  from: string;
  forwardTo: string;
  connected: boolean;
  disconnectedAt: string | null;
};

export function isListenerHeld(row: Pick<Row, "processId" | "seenAt">, clock: Clock): boolean {
  return row.processId !== null && row.seenAt !== null && clock.nowMs() - row.seenAt.getTime() < LISTENER_STALE_MS;
}

export function describeListener(row: Row | null, clock: Clock): ListenerView | null {
  if (!row) return null;
  const connected = isListenerHeld(row, clock);
  return {
    by: row.callerName,
    role: row.callerRole,
    kind: row.callerKind,
    since: row.attachedAt.toISOString(),
    from: row.remoteAddress,
    forwardTo: row.forwardTo,
    connected,
    disconnectedAt: connected ? null : ((row.disconnectedAt ?? row.seenAt)?.toISOString() ?? null),
  };
}
