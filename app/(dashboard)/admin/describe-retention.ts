// Pure wording of the Admin page's retention panel (retention-admin.tsx): sizes, counts and the
// sentence of what a run pruned.

/** 0 → "0 B"; 8_192 → "8.0 KiB"; 5_452_595 → "5.2 MiB"; binary units, one decimal from KiB up. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u += 1;
  }
  return u === 0 ? `${n} B` : `${n.toFixed(1)} ${units[u]}`;
}

/** Rows as counted: exact up to the cap, then "more than". */
export function formatRows(rows: number, capped: boolean, cap: number): string {
  return capped ? `more than ${cap.toLocaleString("en-US")}` : rows.toLocaleString("en-US");
}

const NOUNS: Record<string, [string, string]> = {
  deliveries: ["delivery", "deliveries"],
  receiverRecords: ["receiver record", "receiver records"],
  conformanceRuns: ["conformance run", "conformance runs"],
  signInArtefacts: ["sign-in artefact", "sign-in artefacts"],
};

/** {deliveries: 1200, conformanceRuns: 1} → "1,200 deliveries, 1 conformance run"; all zero → "nothing". */
export function describePruned(counts: Record<string, number>): string {
  const parts = Object.entries(NOUNS)
    .filter(([kind]) => (counts[kind] ?? 0) > 0)
    .map(([kind, [one, many]]) => {
      const n = counts[kind] ?? 0;
      return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
    });
  return parts.length ? parts.join(", ") : "nothing";
}
