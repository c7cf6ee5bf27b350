// Which channels the caller's data came through, from the data itself. The snapshot's dataSources
// holds what a source declared when it linked (spec "dataSources"); its positions say which
// sources actually sent something. A view reading only the first said "Mobile app — not used"
// beside a track of mobile-app fixes. Pure, so it is unit-tested.
import type { TCaller, TLocationSource, TTrack } from "@/server/incidents/snapshot.schema";
import { SOURCE_LABELS } from "../map/select-tracks";

export type SourceUse = { name: string; used: boolean; detail: string | null };

const KIND_SOURCES: Record<"mobileApp" | "webApp" | "googleEls", TLocationSource[]> = {
  mobileApp: ["MobileApp"],
  webApp: ["WebApp"],
  googleEls: ["GoogleEls"],
};

const positions = (n: number) => `${n} position${n === 1 ? "" : "s"}`;

export function dataSourcesUsed(sources: TCaller["dataSources"], tracks: TTrack[]): SourceUse[] {
  const count = (s: TLocationSource) => tracks.find((t) => t.source === s)?.track.length ?? 0;
  const join = (...parts: Array<string | null>) => parts.filter(Boolean).join(" · ") || null;
  const kind = (name: string, linked: string | null, isLinked: boolean, from: TLocationSource[]): SourceUse => {
    const n = from.reduce((sum, s) => sum + count(s), 0);
    return { name, used: isLinked || n > 0, detail: join(linked, n ? positions(n) : null) };
  };
  const eed = sources.appleEed;
  const eedDetail = eed
    ? (["hasLocation", "hasLiveVideo", "hasMediaUpload", "hasAdditionalData"] as const)
        .filter((k) => eed[k])
        .map((k) =>
          k
            .slice(3)
            .replace(/([A-Z])/g, " $1")
            .trim()
            .toLowerCase(),
        )
        .join(", ") || null
    : null;
  const rows = [
    kind(
      "Mobile app",
      sources.mobileApp ? `${sources.mobileApp.appInfo.name} ${sources.mobileApp.appInfo.version}` : null,
      sources.mobileApp !== null,
      KIND_SOURCES.mobileApp,
    ),
    kind("Web app", null, sources.webApp !== null, KIND_SOURCES.webApp),
    { name: "Apple EED", used: eed !== null, detail: eedDetail },
    kind("Google ELS", null, sources.googleEls !== null, KIND_SOURCES.googleEls),
  ];
  // Location sources that are no dataSources member (AML, an SMS link, an entered address): shown when they sent.
  for (const s of ["Aml", "MobileAppSms", "Entered"] as const)
    if (count(s)) rows.push({ name: SOURCE_LABELS[s], used: true, detail: positions(count(s)) });
  return rows;
}
