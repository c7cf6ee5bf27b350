// Line model for JsonDiffView: the NEXT value pretty-printed, with what microdiff found changed
// since PREV marked on its lines, and removed members shown (struck) where they used to be.
import diff, { type Difference } from "microdiff";

export type DiffLineKind = "same" | "added" | "removed" | "changed";
export type DiffLine = { kind: DiffLineKind; indent: number; text: string; path: string; was?: string };
export type PathChange = { kind: "added" | "removed" | "changed"; path: string };

type Json = unknown;
const isContainer = (v: Json): v is Record<string, Json> | Json[] => typeof v === "object" && v !== null;
const pathKey = (path: (string | number)[]) => JSON.stringify(path);

/** "caller.tracks[0].track[2].accuracy" — how an integrator would name the member. */
export function formatPath(path: (string | number)[]): string {
  return path.reduce<string>((s, p) => (typeof p === "number" ? `${s}[${p}]` : s ? `${s}.${p}` : p), "") || "(root)";
}

export function changedPaths(prev: Json, next: Json): PathChange[] {
  if (!isContainer(prev) || !isContainer(next))
    return Object.is(prev, next) ? [] : [{ kind: "changed", path: "(root)" }];
  const kinds = { CREATE: "added", REMOVE: "removed", CHANGE: "changed" } as const;
  return diff(prev, next).map((d) => ({ kind: kinds[d.type], path: formatPath(d.path) }));
}

export function diffJsonLines(prev: Json, next: Json): DiffLine[] {
  if (!isContainer(prev) || !isContainer(next)) {
    return Object.is(prev, next)
      ? subtree(next, "same", 0, "", "", "")
      : [...subtree(prev, "removed", 0, "", "", ""), ...subtree(next, "added", 0, "", "", "")];
  }
  const changes = new Map<string, Difference>();
  const removedUnder = new Map<string, Extract<Difference, { type: "REMOVE" }>[]>();
  for (const d of diff(prev, next)) {
    if (d.type === "REMOVE") {
      const parent = pathKey(d.path.slice(0, -1));
      removedUnder.set(parent, [...(removedUnder.get(parent) ?? []), d]);
    } else changes.set(pathKey(d.path), d);
  }
  const lines: DiffLine[] = [];
  const walk = (value: Json, path: (string | number)[], indent: number, prefix: string, comma: string) => {
    const change = changes.get(pathKey(path));
    const p = formatPath(path);
    if (change?.type === "CREATE") return void lines.push(...subtree(value, "added", indent, prefix, comma, p));
    if (change?.type === "CHANGE") {
      if (isContainer(change.oldValue) || isContainer(value)) {
        lines.push(
          ...subtree(change.oldValue, "removed", indent, prefix, comma, p),
          ...subtree(value, "added", indent, prefix, comma, p),
        );
      } else
        lines.push({
          kind: "changed",
          indent,
          text: `${prefix}${JSON.stringify(value)}${comma}`,
          path: p,
          was: JSON.stringify(change.oldValue),
        });
      return;
    }
    if (!isContainer(value))
      return void lines.push({ kind: "same", indent, text: `${prefix}${JSON.stringify(value)}${comma}`, path: p });
    const isArray = Array.isArray(value);
    const entries: [string | number, Json][] = isArray ? value.map((v, i) => [i, v]) : Object.entries(value);
    const removed = removedUnder.get(pathKey(path)) ?? [];
    lines.push({ kind: "same", indent, text: `${prefix}${isArray ? "[" : "{"}`, path: p });
    const total = entries.length + removed.length;
    entries.forEach(([k, v], i) =>
      walk(v, [...path, k], indent + 1, isArray ? "" : `${JSON.stringify(k)}: `, i < total - 1 ? "," : ""),
    );
    removed.forEach((d, i) => {
      const k = d.path.at(-1)!;
      lines.push(
        ...subtree(
          d.oldValue,
          "removed",
          indent + 1,
          typeof k === "number" ? "" : `${JSON.stringify(k)}: `,
          entries.length + i < total - 1 ? "," : "",
          formatPath(d.path),
        ),
      );
    });
    lines.push({ kind: "same", indent, text: `${isArray ? "]" : "}"}${comma}`, path: p });
  };
  walk(next, [], 0, "", "");
  return lines;
}

/** A whole value as lines of one kind (2-space JSON, like JSON.stringify(v, null, 2)). */
function subtree(
  value: Json,
  kind: DiffLineKind,
  indent: number,
  prefix: string,
  comma: string,
  path: string,
): DiffLine[] {
  const raw = (JSON.stringify(value, null, 2) ?? "undefined").split("\n");
  return raw.map((line, i) => {
    const lead = line.length - line.trimStart().length;
    return {
      kind,
      indent: indent + lead / 2,
      text: `${i === 0 ? prefix : ""}${line.trimStart()}${i === raw.length - 1 ? comma : ""}`,
      path,
    };
  });
}

export type DiffRow = DiffLine | { kind: "gap"; hidden: number };

/** Changed lines with `context` unchanged lines around each, the rest folded into gaps (like `git diff -U3`). */
export function withContext(lines: DiffLine[], context = 3): DiffRow[] {
  const keep = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.kind === "same") return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const rows: DiffRow[] = [];
  let hidden = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (hidden) rows.push({ kind: "gap", hidden });
      hidden = 0;
      rows.push(l);
    } else hidden++;
  });
  if (hidden) rows.push({ kind: "gap", hidden });
  return rows;
}
