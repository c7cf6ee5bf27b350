// Rename coverage: every rename of the spec's Versioning rules 4–6 is mapped
// (RENAMES), each mapping holds on a rendered v2 body, and the transcription of
// the rules matches the spec in docs/spec/platform-interface.md.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { goldenHistory, sequentialIds } from "../testing/golden-history.ts";
import { planLegacyEvents } from "../../webhooks/planning/plan-legacy-events.ts";
import { NEW_LANE } from "../../webhooks/planning/plan-events.ts";
import { V2_POSITION_SOURCES, ZIncidentV2 } from "./incident.schema.ts";
import { RENAMES, SPEC_PHRASES } from "./renames.ts";

/** platform-interface.md, Versioning rules 4–6, verbatim (checked against docs/spec/platform-interface.md below). */
const RULES_TEXT = {
  4: "v2 to v3 renames: Psap/PsapId to Agency/AgencyId; psaps to involvedAgencies; Position/positionSource to Location/source; captureAtUtc to capturedAtUtc; createdTimeUtc to createdAtUtc; verticalAccuracy to altitudeAccuracy; body requestId and requestTimeStampUtc to headers; isTest to purpose; incident classification to caller.reportedProblems (deadlock is now trapped); caller.fullname to caller.fullName; caller.phoneNumbers (array) to caller.phoneNumber (nullable single value); caller.gender to caller.medicData.person.sex; caller.height and weight to medicData.person; incident deviceInfo to caller.deviceInfo (nullable, null for unknown device); psap.name to agency.displayName; permanentResidence.geoPoint to permanentResidence.coordinates; caller.age (years) to caller.medicData.person.yearOfBirth (a year).",
  5: "Enum renames: location source Manual to Entered; connection types G2, G3, G4, G5 to Cellular2G, Cellular3G, Cellular4G, Cellular5G. v3 adds source MobileAppSms (v2 folded it into MobileApp).",
  6: "Medical flags moved: hearingImpairment to assistance.hearing.reported; blind to assistance.vision.reported; speechDefect to assistance.speech.reported; diabetes, epilepsy, heart, lungs to conditions.<name>.reported; mentalDisorders to conditions.psychiatric.reported; regularPrescription to medications; other split into allergies, advanceDirectives, conditions.description, conditions.pregnancy, assistance.description, organDonation, notes.caller; lastUpdatedUtc has no counterpart.",
} as const;

/** Each rename of a rule: its text split on ";" and on sentence ends, without the rule's lead-in. */
const itemsOf = (text: string) =>
  text
    .replace(/^[^:]+:\s*/, "")
    .split(/;\s*|\.\s+(?=[a-z0-9])/i)
    .map((s) => s.replace(/\.$/, "").trim())
    .filter(Boolean);

function get(value: unknown, path: string): unknown {
  let node = value;
  for (const part of path.split(/\.|(?=\[)/)) {
    const index = /^\[(\d+)\]$/.exec(part);
    node =
      node == null
        ? undefined
        : index
          ? (node as unknown[])[Number(index[1])]
          : (node as Record<string, unknown>)[part];
  }
  return node;
}

const [created] = goldenHistory();
const { events } = planLegacyEvents({ change: created!, lane: NEW_LANE, major: 2, newId: sequentialIds() });
const body = events[0]!.body as Record<string, unknown> & { incident: Record<string, unknown> };
const v3 = created!.snapshot;

describe("rename coverage (Versioning rules 4–6)", () => {
  it("maps every rename the rules name", () => {
    for (const rule of [4, 5, 6] as const) {
      for (const item of itemsOf(RULES_TEXT[rule])) {
        expect(
          SPEC_PHRASES.some((p) => item.includes(p)),
          `rule ${rule}: "${item}" is not mapped in renames.ts`,
        ).toBe(true);
      }
    }
  });

  it("transcribes the spec's rules exactly", () => {
    const spec = readFileSync(resolve(import.meta.dirname, "../../../docs/spec/platform-interface.md"), "utf8");
    for (const rule of [4, 5, 6] as const) expect(spec).toContain(`${rule}. ${RULES_TEXT[rule]}`);
  });

  it("renders the create body valid against the v2 schema", () => {
    expect(() => ZIncidentV2.parse(body.incident)).not.toThrow();
  });

  for (const r of RENAMES) {
    it(`rule ${r.rule}: ${r.phrase} — ${r.v3 ?? "(none)"} → ${r.v2}`, () => {
      const from = r.v3 === null ? undefined : get(v3, r.v3);
      const to = get(r.expect === "envelope" ? body : body.incident, r.v2!);
      if (r.v3 !== null) expect(from, `${r.v3} must be set in the fixture`).not.toBeUndefined();
      expect(to, `${r.v2} must be present in the v2 body`).not.toBeUndefined();
      switch (r.expect ?? "equal") {
        case "equal":
          expect(to).toEqual(from);
          break;
        case "renamed-list":
          expect([get(v3, "involvedAgencies.length"), get(body.incident, "psaps.length")]).toEqual([2, 2]);
          expect(to).toEqual(from);
          break;
        case "list-of-one":
          expect(to).toEqual([from]);
          break;
        case "age":
          expect(to).toBe(created!.producedAt.getUTCFullYear() - (from as number));
          break;
        case "envelope":
          expect([body.requestId, body.requestTimeStampUtc]).toEqual([
            "00000000-0000-4000-8000-000000000001",
            created!.producedAt.toISOString(),
          ]);
          break;
        case "enum":
          expect(to).toBe(
            (
              {
                Real: false,
                Demo: false,
                Test: true,
                MobileApp: "MobileApp",
                Entered: "Manual",
                Cellular4G: "G4",
              } as Record<string, unknown>
            )[from as string],
          );
          break;
        case "folded":
          expect([from, to]).toEqual(["MobileAppSms", "MobileApp"]);
          break;
        case "split":
          expect(to as string).toContain(from as string);
          break;
        case "dropped":
          expect(to).toBeNull();
          break;
      }
      // The v3 name is gone from v2 (where the name itself changed).
      const v3Leaf = r.v3
        ?.split(".")
        .at(-1)
        ?.replace(/\[\d+\]$/, "");
      const v2Leaf = r
        .v2!.split(".")
        .at(-1)!
        .replace(/\[\d+\]$/, "");
      if (v3Leaf && v3Leaf !== v2Leaf && r.expect !== "split")
        expect(get(r.expect === "envelope" ? body : body.incident, r.v2!.replace(v2Leaf, v3Leaf))).toBeUndefined();
    });
  }

  it("has no v3 names left anywhere in the v2 body", () => {
    const json = JSON.stringify(body);
    for (const v3Only of [
      "purpose",
      "createdAtUtc",
      "capturedAtUtc",
      "altitudeAccuracy",
      "reportedProblems",
      "fullName",
      "involvedAgencies",
      "displayName",
      "coordinates",
      "yearOfBirth",
      "medicData",
      '"source"',
      "Entered",
      "Cellular",
      "MobileAppSms",
      "trapped",
    ]) {
      expect(json, v3Only).not.toContain(v3Only);
    }
  });

  it("applies the one enum correction: Eed removed, GoogleEls added", () => {
    expect(V2_POSITION_SOURCES).toContain("GoogleEls");
    expect(V2_POSITION_SOURCES).not.toContain("Eed");
  });
});
