import type { TIncidentSnapshotV3 } from "@/server/incidents/snapshot.schema";
import { Badge } from "../ui/badge";
import { RelativeTime } from "../ui/relative-time";
import { Timeline } from "../timeline/timeline";
import { describeChange, type ChangeRecord } from "./describe-change";

/** Every change record of an incident, newest first, with who caused it; with `nowMs`, each one's age too. */
export function ChangeTimeline({
  changes,
  snapshot,
  nowMs,
}: {
  changes: ChangeRecord[];
  snapshot: TIncidentSnapshotV3;
  /** The workbench clock's now: each record also reads "2 min ago" beside its exact time. */
  nowMs?: number | null;
}) {
  const names = new Map(snapshot.involvedAgencies.map((a) => [a.id, a.displayName]));
  const items = [...changes].reverse().map((c) => {
    const { title, status } = describeChange(c, (id) => names.get(id) ?? "An agency");
    return {
      id: String(c.seq),
      at: c.producedAtUtc,
      title,
      status,
      meta: (
        <>
          {nowMs !== undefined && (
            <RelativeTime iso={c.producedAtUtc} nowMs={nowMs} className="text-xs text-slate-600" />
          )}
          <Badge tone="neutral" className="font-mono font-normal">
            #{c.seq} · {c.actor}
          </Badge>
        </>
      ),
    };
  });
  return <Timeline items={items} ariaLabel="Changes, newest first" />;
}
