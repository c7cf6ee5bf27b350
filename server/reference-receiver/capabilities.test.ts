import { describe, expect, it } from "vitest";
import {
  declarationProblem,
  defaultDeclaration,
  isFlagSet,
  listFlags,
  normalizeFlag,
  withFlag,
} from "./capabilities.ts";
import { V3_FLAG_PATHS } from "../webhook-contracts/v3/capability-flags.ts";

describe("capability declarations", () => {
  it("the default declares every v3 flag of the spec as true, version 3.0, allowsMonitoring false", () => {
    const d = defaultDeclaration();
    expect(V3_FLAG_PATHS).toHaveLength(18);
    expect(listFlags(d).every((f) => f.enabled)).toBe(true);
    expect(d).toMatchObject({ version: "3.0", allowsMonitoring: false });
    expect(d.supports.incident).toMatchObject({
      caller: { chat: { activated: true }, liveVideo: { activated: true, ended: true } },
      involvedAgency: { collaboration: { changed: true } },
    });
  });

  it("reads and sets flags by dotted path, with or without the incident. prefix", () => {
    expect(normalizeFlag("incident.labelChanged")).toBe("labelChanged");
    expect(normalizeFlag("caller.liveVideo.ended")).toBe("caller.liveVideo.ended");
    expect(normalizeFlag("incident.caller.liveVideo")).toBeUndefined();
    const d = defaultDeclaration();
    d.supports.incident = withFlag(d.supports.incident!, "caller.chat.activated", false);
    expect(isFlagSet(d, "caller.chat.activated")).toBe(false);
    expect(isFlagSet(d, "caller.liveVideo.ended")).toBe(true);
  });

  it("a missing flag or group means unsupported", () => {
    const d = {
      version: "3.0",
      supports: { incident: { created: true, caller: true } },
      allowsMonitoring: false,
    } as never;
    expect(isFlagSet(d, "caller.changed")).toBe(false);
    expect(isFlagSet({ version: "3.0", supports: {}, allowsMonitoring: false }, "created")).toBe(false);
  });

  it("names the declarations the service would reject (Endpoints rule 1, Versioning rule 3), and only those", () => {
    const only = (...flags: string[]) => {
      const d = defaultDeclaration();
      for (const f of V3_FLAG_PATHS) d.supports.incident = withFlag(d.supports.incident!, f, flags.includes(f));
      return d;
    };
    const cases: Array<[string, ReturnType<typeof defaultDeclaration>, RegExp | null]> = [
      ["the default", defaultDeclaration(), null],
      ["only created", only("created"), null],
      ["only changed", only("changed"), null],
      ["neither created nor changed", only("labelChanged"), /neither incident.created nor incident.changed/],
      ["no flag at all", only(), /neither incident.created nor incident.changed/],
      ["version 4.0", { ...defaultDeclaration(), version: "4.0" }, /version 4.0 is not a 3.x version/],
      ["version 2.0 without flags (legacy: no flags read)", { ...only(), version: "2.0" }, null],
      ["version 1.3 without flags (legacy: no flags read)", { ...only(), version: "1.3" }, null],
    ];
    for (const [name, declaration, problem] of cases) {
      const found = declarationProblem(declaration);
      if (problem) expect({ name, found }).toEqual({ name, found: expect.stringMatching(problem) });
      else expect({ name, found }).toEqual({ name, found: null });
    }
  });
});
