import type { TIncidentSnapshotV3 } from "@/server/incidents/snapshot.schema";
import { Badge } from "../ui/badge";
import { Timeline } from "../timeline/timeline";
import { describeChange, type ChangeRecord } from "./describe-change";

/** Every change record of an incident, newest first, with who caused it. */
export function ChangeTimeline({ changes, snapshot }: { changes: ChangeRecord[]; snapshot: TIncidentSnapshotV3 }) {
  const names = new Map(snapshot.involvedAgencies.map((a) => [a.id, a.displayName]));
  const items = [...changes].reverse().map((c) => {
    const { title, status } = describeChange(c, (id) => names.get(id) ?? "An agency");
    return {
      id: String(c.seq),
      at: c.producedAtUtc,
      title,
      status,
      meta: (
        <Badge tone="neutral" className="font-mono font-normal">
          #{c.seq} · {c.actor}
        </Badge>
      ),
    };
  });
  return <Timeline items={items} ariaLabel="Changes, newest first" />;
}
