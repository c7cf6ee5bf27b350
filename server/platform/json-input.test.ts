// The text checks every surface applies at its edge (json-input.ts); over HTTP: bad-input.int.test.ts.
import { describe, expect, it } from "vitest";
import {
  findUnsafeText,
  jsonNestsDeeperThan,
  MAX_JSON_DEPTH,
  parseJsonInput,
  unsafeTextProblem,
} from "./json-input.ts";

describe("unsafeTextProblem", () => {
  it("passes ordinary text, emoji (a surrogate pair) and other control characters", () => {
    for (const ok of ["", "Fall, elderly", "Åse 🚑 Ø", "tab\tnew\nline", "\u0001"])
      expect(unsafeTextProblem(ok)).toBeNull();
  });
  it("names NUL and lone surrogates", () => {
    expect(unsafeTextProblem("a\u0000b")).toMatch(/NUL/);
    expect(unsafeTextProblem("\ud800")).toMatch(/lone surrogate/);
    expect(unsafeTextProblem("x\udc00")).toMatch(/lone surrogate/);
    expect(unsafeTextProblem("\ud83d\ud83d\ude91")).toMatch(/lone surrogate/);
  });
});

describe("findUnsafeText", () => {
  it("names the field by its path, member names included", () => {
    expect(findUnsafeText({ caller: { label: "ok", summary: "bad\u0000" } })).toEqual({
      field: "caller.summary",
      message: expect.stringMatching(/NUL/),
    });
    expect(findUnsafeText({ messages: ["a", { text: "\ud800" }] })?.field).toBe("messages.1.text");
    expect(findUnsafeText({ ["k\u0000"]: 1 })?.field).toBe("(member name)");
    expect(findUnsafeText("\u0000")?.field).toBe("body");
    expect(findUnsafeText({ a: [1, true, null, "fine"] })).toBeNull();
  });
});

describe("jsonNestsDeeperThan", () => {
  const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
  it("counts arrays and objects outside strings", () => {
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonNestsDeeperThan(`{"a":"${"[".repeat(500)}"}`, 2)).toBe(false);
    expect(jsonNestsDeeperThan(`{"a":"\\"[[[["}`, 1)).toBe(false);
    expect(jsonNestsDeeperThan(`{"a":{"b":[{}]}}`, 3)).toBe(true);
  });
});

describe("parseJsonInput", () => {
  it("parses what is safe and says why the rest is refused", () => {
    expect(parseJsonInput(`{"label":"ok"}`)).toEqual({ ok: true, value: { label: "ok" } });
    expect(parseJsonInput("[".repeat(100_000))).toMatchObject({ ok: false, kind: "depth" });
    expect(parseJsonInput("{")).toMatchObject({ ok: false, kind: "syntax" });
    expect(parseJsonInput(`{"summary":"\\ud800"}`)).toMatchObject({ ok: false, kind: "text", field: "summary" });
    expect(parseJsonInput(`{"label":"a\\u0000"}`)).toMatchObject({ ok: false, kind: "text", field: "label" });
  });
});
