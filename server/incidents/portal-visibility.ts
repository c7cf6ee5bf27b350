// What a portal dispatcher may see: incidents involving their own agency or
// one of its related agencies (the agencies it collaborates with), in any
// collaboration state. The spec is silent on the portal's scope; dispatchers
// expect their own incidents by default and their partners' on request.
import type { Db } from "./db-handle.ts";
import type { TIncidentSnapshotV3 } from "./snapshot.schema.ts";

export async function visibleAgencies(options: {
  db: Db;
  agencyId: string;
}): Promise<Array<{ id: string; displayName: string; own: boolean }>> {
  const [own, related] = await Promise.all([
    options.db.agency.findUnique({ where: { id: options.agencyId }, select: { id: true, displayName: true } }),
    options.db.agencyRelation.findMany({
      where: { fromId: options.agencyId },
      select: { to: { select: { id: true, displayName: true } } },
    }),
  ]);
  return [
    ...(own ? [{ ...own, own: true }] : []),
    ...related.map((r) => ({ ...r.to, own: false })).sort((a, b) => a.displayName.localeCompare(b.displayName)),
  ];
}

export const isVisibleTo = (snapshot: TIncidentSnapshotV3, agencyIds: string[]) =>
  snapshot.involvedAgencies.some((a) => agencyIds.includes(a.id));
