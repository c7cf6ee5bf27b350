import { describe, expect, it, vi } from "vitest";

describe("processSingleton", () => {
  it("gives every copy of a module the same value (Next loads server modules twice)", async () => {
    const first = await import("./process-singleton.ts");
    vi.resetModules();
    const second = await import("./process-singleton.ts");
    expect(second).not.toBe(first); // two module instances, as in two bundles
    const a = first.processSingleton("test.shared", () => ({ made: "first" }));
    const b = second.processSingleton("test.shared", () => ({ made: "second" }));
    expect(b).toBe(a);
    expect(b.made).toBe("first");
  });

  it("creates once per name, lazily", () => {
    return import("./process-singleton.ts").then(({ processSingleton }) => {
      const create = vi.fn(() => new Map());
      expect(processSingleton("test.lazy", create)).toBe(processSingleton("test.lazy", create));
      expect(create).toHaveBeenCalledTimes(1);
      expect(processSingleton("test.other", () => 1)).toBe(1);
    });
  });
});
