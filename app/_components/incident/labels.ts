// Words a dispatcher reads for the snapshot's enum members (workbench-decisions.md names).
import type { REPORTED_PROBLEMS } from "@/server/incidents/snapshot.schema";

export const PROBLEM_LABELS: Record<(typeof REPORTED_PROBLEMS)[number], string> = {
  unconscious: "Unconscious",
  notBreathing: "Not breathing",
  bleeding: "Bleeding",
  chestPain: "Chest pain",
  fire: "Fire",
  violence: "Violence",
  trafficAccident: "Traffic accident",
  drowning: "Drowning",
  fall: "Fall",
  poisoning: "Poisoning",
  childbirth: "Childbirth",
  intruder: "Intruder",
  trapped: "Trapped",
};

export const CONNECTION_LABELS: Record<string, string> = {
  Cellular2G: "2G",
  Cellular3G: "3G",
  Cellular4G: "4G",
  Cellular5G: "5G",
  Wifi: "Wi-Fi",
  Unknown: "Unknown",
};

/** "2026-11-22T06:00:00.000Z" → "2026-11-22 06:00:00Z"; null → null (rendered "—"). */
export function formatUtc(iso: string | null | undefined): string | null {
  if (!iso) return null;
  return `${iso.replace("T", " ").replace(/(\.\d+)?Z$/, "")}Z`;
}

/** BCP 47 tag → "German (de-AT)" where the browser knows it, else the tag itself. */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(["en"], { type: "language" }).of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}
