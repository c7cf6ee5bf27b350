// Every rename of platform-interface.md, Versioning rules 4–6 (v2 → v3), as
// data: the spec's own phrase, where the value sits in a v3 create body's
// `incident` and where the v2 renderer puts it. The rename-coverage test renders
// a snapshot in which every one of these values is distinctive and checks each
// entry on the v2 body; it also checks this list against the spec's text
// (SPEC_PHRASES), so a rename added to the spec and not mapped here fails.
//
// Paths: dots for members, [n] for list items. `expect` names how the v2 value
// derives from the v3 one when it is not simply equal.

export type Rename = {
  rule: 4 | 5 | 6;
  /** The phrase of the spec this entry maps (matched against the spec's text). */
  phrase: string;
  v3: string | null;
  v2: string | null;
  expect?: "equal" | "list-of-one" | "age" | "envelope" | "enum" | "folded" | "split" | "dropped" | "renamed-list";
};

export const RENAMES: Rename[] = [
  {
    rule: 4,
    phrase: "Psap/PsapId to Agency/AgencyId",
    v3: "involvedAgencies[1].invitedBy.id",
    v2: "psaps[1].invitedBy.psapId",
  },
  {
    rule: 4,
    phrase: "psaps to involvedAgencies",
    v3: "involvedAgencies[1].id",
    v2: "psaps[1].psapId",
    expect: "renamed-list",
  },
  {
    rule: 4,
    phrase: "Position/positionSource to Location/source",
    v3: "caller.tracks[0].track[0].source",
    v2: "caller.tracks[0].track[0].positionSource",
    expect: "enum",
  },
  {
    rule: 4,
    phrase: "captureAtUtc to capturedAtUtc",
    v3: "caller.tracks[0].track[0].capturedAtUtc",
    v2: "caller.tracks[0].track[0].captureAtUtc",
  },
  { rule: 4, phrase: "createdTimeUtc to createdAtUtc", v3: "createdAtUtc", v2: "createdTimeUtc" },
  {
    rule: 4,
    phrase: "verticalAccuracy to altitudeAccuracy",
    v3: "caller.tracks[0].track[0].altitudeAccuracy",
    v2: "caller.tracks[0].track[0].verticalAccuracy",
  },
  {
    rule: 4,
    phrase: "body requestId and requestTimeStampUtc to headers",
    v3: null,
    v2: "requestId",
    expect: "envelope",
  },
  { rule: 4, phrase: "isTest to purpose", v3: "purpose", v2: "isTest", expect: "enum" },
  {
    rule: 4,
    phrase: "incident classification to caller.reportedProblems (deadlock is now trapped)",
    v3: "caller.reportedProblems.trapped",
    v2: "classification.deadlock",
  },
  { rule: 4, phrase: "caller.fullname to caller.fullName", v3: "caller.fullName", v2: "caller.fullname" },
  {
    rule: 4,
    phrase: "caller.phoneNumbers (array) to caller.phoneNumber (nullable single value)",
    v3: "caller.phoneNumber",
    v2: "caller.phoneNumbers",
    expect: "list-of-one",
  },
  {
    rule: 4,
    phrase: "caller.gender to caller.medicData.person.sex",
    v3: "caller.medicData.person.sex",
    v2: "caller.gender",
  },
  {
    rule: 4,
    phrase: "caller.height and weight to medicData.person",
    v3: "caller.medicData.person.height",
    v2: "caller.height",
  },
  {
    rule: 4,
    phrase: "caller.height and weight to medicData.person",
    v3: "caller.medicData.person.weight",
    v2: "caller.weight",
  },
  {
    rule: 4,
    phrase: "incident deviceInfo to caller.deviceInfo",
    v3: "caller.deviceInfo.batteryLevel",
    v2: "deviceInfo.batteryLevel",
  },
  { rule: 4, phrase: "psap.name to agency.displayName", v3: "involvedAgencies[1].displayName", v2: "psaps[1].name" },
  {
    rule: 4,
    phrase: "permanentResidence.geoPoint to permanentResidence.coordinates",
    v3: "caller.permanentResidence.coordinates",
    v2: "caller.permanentResidence.geoPoint",
  },
  {
    rule: 4,
    phrase: "caller.age (years) to caller.medicData.person.yearOfBirth (a year)",
    v3: "caller.medicData.person.yearOfBirth",
    v2: "caller.age",
    expect: "age",
  },
  {
    rule: 5,
    phrase: "location source Manual to Entered",
    v3: "caller.tracks[1].source",
    v2: "caller.tracks[1].positionSource",
    expect: "enum",
  },
  {
    rule: 5,
    phrase: "G2, G3, G4, G5 to Cellular2G, Cellular3G, Cellular4G, Cellular5G",
    v3: "caller.deviceInfo.internetConnectionType",
    v2: "deviceInfo.internetConnectionType",
    expect: "enum",
  },
  {
    rule: 5,
    phrase: "v3 adds source MobileAppSms (v2 folded it into MobileApp)",
    v3: "caller.tracks[2].track[0].source",
    v2: "caller.tracks[0].track[1].positionSource",
    expect: "folded",
  },
  {
    rule: 6,
    phrase: "hearingImpairment to assistance.hearing.reported",
    v3: "caller.medicData.assistance.hearing.reported",
    v2: "caller.medicalData.hearingImpairment",
  },
  {
    rule: 6,
    phrase: "blind to assistance.vision.reported",
    v3: "caller.medicData.assistance.vision.reported",
    v2: "caller.medicalData.blind",
  },
  {
    rule: 6,
    phrase: "speechDefect to assistance.speech.reported",
    v3: "caller.medicData.assistance.speech.reported",
    v2: "caller.medicalData.speechDefect",
  },
  ...(["diabetes", "epilepsy", "heart", "lungs"] as const).map((n) => ({
    rule: 6 as const,
    phrase: "diabetes, epilepsy, heart, lungs to conditions.<name>.reported",
    v3: `caller.medicData.conditions.${n}.reported`,
    v2: `caller.medicalData.${n}`,
  })),
  {
    rule: 6,
    phrase: "mentalDisorders to conditions.psychiatric.reported",
    v3: "caller.medicData.conditions.psychiatric.reported",
    v2: "caller.medicalData.mentalDisorders",
  },
  {
    rule: 6,
    phrase: "regularPrescription to medications",
    v3: "caller.medicData.medications",
    v2: "caller.medicalData.regularPrescription",
  },
  ...(
    [
      "allergies",
      "advanceDirectives",
      "conditions.description",
      "conditions.pregnancy.description",
      "assistance.description",
      "organDonation.description",
      "notes.caller",
    ] as const
  ).map((n) => ({
    rule: 6 as const,
    phrase:
      "other split into allergies, advanceDirectives, conditions.description, conditions.pregnancy, assistance.description, organDonation, notes.caller",
    v3: `caller.medicData.${n}`,
    v2: "caller.medicalData.other",
    expect: "split" as const,
  })),
  {
    rule: 6,
    phrase: "lastUpdatedUtc has no counterpart",
    v3: null,
    v2: "caller.medicalData.lastUpdatedUtc",
    expect: "dropped",
  },
];

/**
 * The renames as the spec words them (Versioning rules 4–6), one phrase per
 * rename, transcribed from platform-interface.md. The coverage test checks that
 * each is mapped above and — when the spec file is reachable — that each still
 * appears in the spec and that the spec names no rename beyond them.
 */
export const SPEC_PHRASES = [...new Set(RENAMES.map((r) => r.phrase))];
