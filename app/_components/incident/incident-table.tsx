import Link from "next/link";
import type { IncidentListRow } from "@/server/incidents/list-incidents";
import { Badge } from "../ui/badge";
import { PurposeBadge } from "../ui/purpose-badge";
import { Table, TBody, TD, TH, THead, TR } from "../ui/table";
import { formatUtc } from "./labels";

/** Incidents as a table; a Test row is striped violet so it never reads as an emergency. */
export function IncidentTable({
  rows,
  hrefOf,
  caption,
}: {
  rows: IncidentListRow[];
  hrefOf: (id: string) => string;
  caption: string;
}) {
  return (
    <Table aria-label={caption} data-testid="incident-table">
      <THead>
        <TR>
          <TH>Purpose</TH>
          <TH>Incident</TH>
          <TH>Caller</TH>
          <TH>Agencies</TH>
          <TH>Created (UTC)</TH>
          <TH>State</TH>
        </TR>
      </THead>
      <TBody>
        {rows.map((r) => (
          <TR
            key={r.id}
            data-testid="incident-row"
            data-incident-id={r.id}
            data-purpose={r.purpose}
            className={
              r.purpose === "Test" ? "bg-[repeating-linear-gradient(135deg,#faf5ff_0_8px,#ffffff_8px_16px)]" : undefined
            }
          >
            <TD>
              <PurposeBadge purpose={r.purpose} />
            </TD>
            <TD>
              <Link
                href={hrefOf(r.id)}
                className="font-medium text-slate-900 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
              >
                {r.label ?? (
                  <>
                    Unlabelled <span className="font-mono text-xs">{r.id.slice(0, 8)}…</span>
                  </>
                )}
              </Link>
              <div className="mt-0.5 flex flex-wrap gap-1 text-xs text-slate-600">
                {r.sources.map((s) => (
                  <Badge key={s} tone="info">
                    {s}
                  </Badge>
                ))}
                {r.chat && <Badge tone="success">chat</Badge>}
                {r.liveVideo === "Active" && <Badge tone="success">live video</Badge>}
                <span>
                  v{r.version} · {r.changeCount} {r.changeCount === 1 ? "change" : "changes"}
                </span>
              </div>
            </TD>
            <TD>
              {r.callerName ?? "—"}
              <div className="text-xs text-slate-600">{r.callerPhone ?? "no number"}</div>
            </TD>
            <TD className="text-xs">
              {r.agencies.map((a) => (
                <div key={a.id}>
                  {a.displayName} <span className="text-slate-600">({a.collaboration})</span>
                </div>
              ))}
            </TD>
            <TD className="font-mono text-xs tabular-nums">{formatUtc(r.createdAtUtc)}</TD>
            <TD>{r.closedAtUtc ? <Badge tone="neutral">Closed</Badge> : <Badge tone="warning">Open</Badge>}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
