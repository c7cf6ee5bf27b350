"use client";
// The dispatcher's incident list: what and where at a glance, how fresh, and whether the caller
// wrote something not yet seen here. Arrow keys, Home and End move between incidents.
import Link from "next/link";
import type { KeyboardEvent } from "react";
import type { IncidentListRow } from "@/server/incidents/list-incidents";
import type { TLocation } from "@/server/incidents/snapshot.schema";
import { incidentTitle } from "@/app/_components/incident/describe-incident";
import { describeFix, formatCoordinates } from "@/app/_components/incident/describe-location";
import { nextActiveIndex } from "@/app/_components/list/next-active-index";
import { Badge } from "@/app/_components/ui/badge";
import { focusRing } from "@/app/_components/ui/cn";
import { PurposeBadge } from "@/app/_components/ui/purpose-badge";
import { RelativeTime } from "@/app/_components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/app/_components/ui/table";
import { hasUnread, useChatSeen } from "../../_components/chat-seen";

export type PortalIncidentRow = IncidentListRow & {
  lastUpdateAtUtc: string;
  latestLocation: TLocation | null;
  lastCallerMessageAtUtc: string | null;
};

export function PortalIncidentTable({ rows, nowMs }: { rows: PortalIncidentRow[]; nowMs: number | null }) {
  function onKeyDown(e: KeyboardEvent<HTMLTableSectionElement>) {
    const links = [...e.currentTarget.querySelectorAll<HTMLAnchorElement>("a[data-row-link]")];
    const current = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (current < 0) return;
    const next = nextActiveIndex(e.key, current, links.length, 10);
    if (next === null) return;
    e.preventDefault();
    links[next]!.focus();
  }
  return (
    <Table aria-label="Incidents, most recent activity first" data-testid="incident-table">
      <THead>
        <TR>
          <TH>Incident</TH>
          <TH>Place</TH>
          <TH>Caller</TH>
          <TH>Last update</TH>
          <TH>Chat</TH>
        </TR>
      </THead>
      <TBody onKeyDown={onKeyDown}>
        {rows.map((r) => (
          <IncidentRow key={r.id} row={r} nowMs={nowMs} />
        ))}
      </TBody>
    </Table>
  );
}

function IncidentRow({ row: r, nowMs }: { row: PortalIncidentRow; nowMs: number | null }) {
  const seen = useChatSeen(r.id);
  const unread = hasUnread(r.lastCallerMessageAtUtc, seen);
  const title = incidentTitle({
    label: r.label,
    problems: r.problems,
    callerName: r.callerName,
    callerPhone: r.callerPhone,
  });
  const where = r.latestLocation;
  return (
    <TR
      data-testid="incident-row"
      data-incident-id={r.id}
      data-purpose={r.purpose}
      data-unread={unread || undefined}
      className={
        r.purpose === "Test" ? "bg-[repeating-linear-gradient(135deg,#faf5ff_0_8px,#ffffff_8px_16px)]" : undefined
      }
    >
      <TD className="min-w-56">
        <Link
          href={`/portal/incidents/${r.id}`}
          data-row-link
          className={`rounded-sm font-semibold text-slate-900 underline-offset-2 hover:underline ${focusRing}`}
        >
          {title}
        </Link>
        <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-slate-600">
          <PurposeBadge purpose={r.purpose} />
          {r.closedAtUtc ? <Badge tone="neutral">Closed</Badge> : <Badge tone="warning">Open</Badge>}
          <span className="font-mono" title={r.id}>
            {r.id.slice(0, 8)}
          </span>
        </div>
      </TD>
      <TD className="min-w-52" data-testid="incident-place">
        {where ? (
          <>
            <span className="font-mono text-xs">{formatCoordinates(where.latitude, where.longitude)}</span>
            <div className="text-xs text-slate-600">
              {describeFix(where)} · <RelativeTime iso={where.capturedAtUtc} nowMs={nowMs} />
            </div>
          </>
        ) : (
          <span className="text-xs text-slate-600">No location yet</span>
        )}
      </TD>
      <TD>
        {r.callerName ?? <span className="text-slate-600">Name not known</span>}
        <div className="font-mono text-xs text-slate-600">{r.callerPhone ?? "no number"}</div>
      </TD>
      <TD className="whitespace-nowrap text-xs text-slate-700" data-testid="incident-last-update">
        <span className="block">
          {r.changeCount} {r.changeCount === 1 ? "update" : "updates"},{" "}
        </span>
        last <RelativeTime iso={r.lastUpdateAtUtc} nowMs={nowMs} className="font-medium text-slate-900" />
      </TD>
      <TD className="whitespace-nowrap text-xs">
        {unread ? (
          <Badge tone="danger" data-testid="unread-chat">
            <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-red-600" />
            New message
          </Badge>
        ) : r.chat ? (
          <span className="text-slate-700">Active</span>
        ) : (
          <span className="text-slate-500">—</span>
        )}
        {r.lastCallerMessageAtUtc && (
          <div className="mt-0.5 text-slate-600">
            caller wrote <RelativeTime iso={r.lastCallerMessageAtUtc} nowMs={nowMs} />
          </div>
        )}
        {r.liveVideo === "Active" && (
          <Badge tone="success" className="mt-1">
            Live video
          </Badge>
        )}
      </TD>
    </TR>
  );
}
