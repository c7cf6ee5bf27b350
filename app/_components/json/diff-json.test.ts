import { describe, expect, it } from "vitest";
import { changedPaths, diffJsonLines, formatPath, withContext } from "./diff-json";

const prev = {
  id: "a",
  caller: { fullName: null, deviceInfo: { batteryLevel: 80 }, languages: ["en"] },
  label: "old",
  gone: { x: 1 },
};
const next = {
  id: "a",
  caller: { fullName: "Ada", deviceInfo: { batteryLevel: 40 }, languages: ["en", "de"] },
  label: "old",
};

describe("diffJsonLines", () => {
  const lines = diffJsonLines(prev, next);
  const text = (l: { indent: number; text: string }) => `${"  ".repeat(l.indent)}${l.text}`;

  it("pretty-prints the next value like JSON.stringify(v, null, 2) when nothing was removed", () => {
    const same = diffJsonLines(next, next);
    expect(same.every((l) => l.kind === "same")).toBe(true);
    expect(same.map(text).join("\n")).toBe(JSON.stringify(next, null, 2));
  });
  it("marks changed leaves with the old value, added members, and removed members in place", () => {
    const find = (kind: string) =>
      lines.filter((l) => l.kind === kind).map((l) => `${l.path} ${l.text}${l.was ? ` was ${l.was}` : ""}`);
    expect(find("changed")).toEqual([
      'caller.fullName "fullName": "Ada", was null',
      'caller.deviceInfo.batteryLevel "batteryLevel": 40 was 80',
    ]);
    expect(find("added")).toEqual(['caller.languages[1] "de"']);
    expect(find("removed")).toEqual(['gone "gone": {', 'gone "x": 1', "gone }"]);
  });
  it("keeps commas right when the removed member comes last", () => {
    expect(lines.find((l) => l.path === "label")!.text).toBe('"label": "old",');
    expect(lines.at(-2)!.text).toBe("}");
  });
  it("shows a type change as the old subtree removed and the new one added", () => {
    const l = diffJsonLines({ a: { b: 1 } }, { a: 2 });
    expect(l.filter((x) => x.path === "a").map((x) => x.kind)).toEqual(["removed", "removed", "removed", "added"]);
  });
});

describe("changedPaths", () => {
  it("names every change the way an integrator reads a member", () => {
    expect(changedPaths(prev, next)).toEqual(
      expect.arrayContaining([
        { kind: "changed", path: "caller.fullName" },
        { kind: "changed", path: "caller.deviceInfo.batteryLevel" },
        { kind: "added", path: "caller.languages[1]" },
        { kind: "removed", path: "gone" },
      ]),
    );
    expect(formatPath([])).toBe("(root)");
    expect(changedPaths(1, 2)).toEqual([{ kind: "changed", path: "(root)" }]);
  });
});

describe("withContext", () => {
  it("keeps changes with n lines around them and folds the rest into counted gaps", () => {
    const same = (i: number) => ({ kind: "same" as const, indent: 0, text: `l${i}`, path: "" });
    const lines = [
      ...Array.from({ length: 10 }, (_, i) => same(i)),
      { kind: "changed" as const, indent: 0, text: "x", path: "x", was: "1" },
      ...Array.from({ length: 10 }, (_, i) => same(i + 11)),
    ];
    const rows = withContext(lines, 2);
    expect(rows.map((r) => (r.kind === "gap" ? `gap${r.hidden}` : r.text))).toEqual([
      "gap8",
      "l8",
      "l9",
      "x",
      "l11",
      "l12",
      "gap8",
    ]);
    expect(
      withContext(
        lines.filter((l) => l.kind === "same"),
        2,
      ),
    ).toEqual([{ kind: "gap", hidden: 20 }]);
  });
});
