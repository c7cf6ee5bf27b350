import type { TInvolvedAgency } from "@/server/incidents/snapshot.schema";
import { Badge, type BadgeTone } from "../ui/badge";
import { Table, TBody, TD, TH, THead, TR } from "../ui/table";

const TONE: Record<TInvolvedAgency["collaboration"], BadgeTone> = {
  Owner: "brand",
  Pending: "warning",
  Accepted: "success",
  Declined: "neutral",
};

export function AgenciesView({ agencies }: { agencies: TInvolvedAgency[] }) {
  if (!agencies.length) return <p className="text-sm text-slate-500">No agency involved.</p>;
  return (
    <Table>
      <THead>
        <tr>
          <TH>Agency</TH>
          <TH>Collaboration</TH>
          <TH>Invited by</TH>
        </tr>
      </THead>
      <TBody>
        {agencies.map((a) => (
          <TR key={a.id}>
            <TD>
              <span className="font-medium">{a.displayName}</span>
              <span className="block font-mono text-[10px] text-slate-500">{a.id}</span>
            </TD>
            <TD>
              <Badge tone={TONE[a.collaboration]}>{a.collaboration}</Badge>
            </TD>
            <TD>{a.invitedBy?.displayName ?? <span className="text-slate-500">—</span>}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
