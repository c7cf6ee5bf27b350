// Replica vs platform: where the receiver's copy of an incident differs from the
// platform's snapshot. Pure, so the dashboard can compare any two snapshots.
// Lists are matched by their natural key (tracks by source, agencies by id), so
// one missing location reads as "tracks[Entered].track[2]" rather than a reordering.

export type Difference = { path: string; replica: unknown; platform: unknown };

const KEYS: Record<string, string> = { tracks: "source", involvedAgencies: "id" };

export function diffReplica(replica: unknown, platform: unknown): Difference[] {
  const out: Difference[] = [];
  walk(replica, platform, "", out);
  return out;
}

function walk(a: unknown, b: unknown, path: string, out: Difference[]): void {
  if (Object.is(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    const key = KEYS[path.split(".").at(-1)!.replace(/\[.*$/, "")];
    if (key) return walkKeyed(a, b, path, key, out);
    for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`, out);
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      // A key on one side only is a difference of its own: missing is not null (spec).
      if (!(k in a) || !(k in b))
        out.push({ path: join(path, k), replica: k in a ? a[k] : "(missing)", platform: k in b ? b[k] : "(missing)" });
      else walk(a[k], b[k], join(path, k), out);
    }
    return;
  }
  out.push({ path: path || "(root)", replica: a, platform: b });
}

function walkKeyed(a: unknown[], b: unknown[], path: string, key: string, out: Difference[]): void {
  const byKey = (list: unknown[]) => new Map(list.filter(isObject).map((item) => [String(item[key]), item]));
  const left = byKey(a);
  const right = byKey(b);
  for (const k of new Set([...left.keys(), ...right.keys()]))
    walk(left.get(k) ?? "(missing)", right.get(k) ?? "(missing)", `${path}[${k}]`, out);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const join = (path: string, k: string) => (path ? `${path}.${k}` : k);
