"use client";
// One fixed-height line of the list: when, what (the operation as the spec names it) and who, and
// the answer: the status with its problem code, the advice it earned, a fault that answered it.
import { Badge, type BadgeTone } from "@/app/_components/ui/badge";
import { cn } from "@/app/_components/ui/cn";
import { RelativeTime } from "@/app/_components/ui/relative-time";
import type { CallSummary } from "@/server/client-calls/list-calls";

export const ROW_HEIGHT = 52;
const COLUMNS = "grid-cols-[5.5rem_minmax(0,1fr)_minmax(0,12rem)]";

/**
 * The operation as a narrow row can show it whole: a path parameter reads {id}, and a long path loses
 * its middle (`POST …/{id}/caller/track`), never the route's tail that tells one call from another.
 */
export function shortOperation(operation: string): string {
  const short = operation.replace(/\{(incidentId|callId)\}/g, "{id}");
  return short.length <= 30 ? short : short.replace(/ \/v1\/(incidents|calls)\//, " …/");
}

export const statusTone = (status: number): BadgeTone =>
  status === 0 ? "danger" : status < 300 ? "success" : status < 400 ? "info" : status < 500 ? "warning" : "danger";

export const describeStatus = (c: Pick<CallSummary, "status" | "problemCode">) =>
  c.status === 0 ? "no answer (reset)" : `${c.status}${c.problemCode ? ` ${c.problemCode}` : ""}`;

export function CallRow({ call, selected, nowMs }: { call: CallSummary; selected: boolean; nowMs: number | null }) {
  const errors = call.advice.filter((a) => a.severity === "error").length;
  const who = [call.clientId ?? "no client", call.username].filter(Boolean).join(" · ");
  return (
    <div
      className={cn(
        "grid h-full items-center gap-2 border-b border-slate-100 px-3 text-sm",
        COLUMNS,
        selected && "bg-orange-50",
      )}
      data-testid="call-row"
    >
      <RelativeTime iso={call.receivedAt} nowMs={nowMs} className="truncate text-xs text-slate-600" />
      <span className="min-w-0">
        <span className="block truncate font-mono text-xs" title={call.operation}>
          {shortOperation(call.operation)}
        </span>
        <span className="block truncate text-xs text-slate-600" title={who}>
          {who} · {call.durationMs} ms{call.console ? " · Partner console" : ""}
        </span>
      </span>
      <span className="min-w-0">
        <span className="flex min-w-0 items-center gap-1">
          <Badge tone={statusTone(call.status)} title={describeStatus(call)} data-testid="call-status">
            {call.status === 0 ? "reset" : call.status}
          </Badge>
          {call.fault && (
            <Badge tone="brand" title={`An injected fault answered: ${call.fault}`}>
              fault
            </Badge>
          )}
          {call.advice.length > 0 && (
            <Badge
              tone={errors ? "danger" : "warning"}
              title={call.advice.map((a) => a.title).join("; ")}
              data-testid="call-advice"
            >
              {call.advice.length} advice
            </Badge>
          )}
        </span>
        <span className="mt-0.5 block truncate text-xs text-slate-600" title={call.problemCode ?? undefined}>
          {call.status === 0 ? "no answer: the connection was reset" : (call.problemCode ?? "ok")}
        </span>
      </span>
    </div>
  );
}

export function CallListHeader() {
  return (
    <div className={cn("grid gap-2 px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600", COLUMNS)}>
      <span>Received</span>
      <span>Operation · client</span>
      <span>Answer · advice</span>
    </div>
  );
}
