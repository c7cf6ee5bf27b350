// Jurisdiction routing: the agencies whose area (GeoJSON Polygon on Agency.area)
// holds the caller's location, narrowed by preferredAgencyTypes when that
// leaves any (a preference, not a filter that could strand the caller).
import booleanPointInPolygon from "@turf/boolean-point-in-polygon";
import type { Db } from "./db-handle.ts";
import type { TGeoPoint } from "./snapshot.schema.ts";

type AgencyType = "Psap" | "Ems" | "Fire";

export async function resolveJurisdiction(options: {
  db: Db;
  location: TGeoPoint;
  preferredAgencyTypes?: AgencyType[];
}): Promise<Array<{ id: string; type: AgencyType }>> {
  const agencies = await options.db.agency.findMany({
    select: { id: true, type: true, area: true, displayName: true },
    orderBy: { displayName: "asc" },
  });
  const point: [number, number] = [options.location.longitude, options.location.latitude];
  const covering = agencies.filter((a) => isPolygon(a.area) && booleanPointInPolygon(point, a.area as never));
  const preferred = options.preferredAgencyTypes?.length
    ? covering.filter((a) => options.preferredAgencyTypes!.includes(a.type))
    : covering;
  // Order: by the preference list, then Psap, Ems, Fire — the first becomes the incident's owner.
  const rank = (t: AgencyType) => {
    const i = options.preferredAgencyTypes?.indexOf(t) ?? -1;
    return i >= 0 ? i : 10 + ["Psap", "Ems", "Fire"].indexOf(t);
  };
  return (preferred.length > 0 ? preferred : covering)
    .sort((a, b) => rank(a.type) - rank(b.type))
    .map((a) => ({ id: a.id, type: a.type }));
}

function isPolygon(area: unknown): boolean {
  const t = (area as { type?: string } | null)?.type;
  return t === "Polygon" || t === "MultiPolygon";
}
