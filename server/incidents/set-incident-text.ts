// The five dispatcher text fields (spec rule 1 of the inbound API: nullable
// text, null clears). Setting the value a field already has changes nothing
// and records nothing.
import type { IncidentChangeKind } from "./change-record.ts";
import { applyIncidentChange } from "./apply-change.ts";
import type { IncidentOperation } from "./change-types.ts";
import type { TIncidentSnapshotV3 } from "./snapshot.schema.ts";

export const TEXT_FIELDS = {
  label: {
    kind: "labelChanged",
    get: (s) => s.label,
    set: (s, v) => {
      s.label = v;
    },
  },
  callSign: {
    kind: "callSignChanged",
    get: (s) => s.callSign,
    set: (s, v) => {
      s.callSign = v;
    },
  },
  summary: {
    kind: "summaryChanged",
    get: (s) => s.summary,
    set: (s, v) => {
      s.summary = v;
    },
  },
  fullName: {
    kind: "caller.fullNameChanged",
    get: (s) => s.caller.fullName,
    set: (s, v) => {
      s.caller.fullName = v;
    },
  },
  patientDescription: {
    kind: "patient.descriptionChanged",
    get: (s) => s.patient.description,
    set: (s, v) => {
      s.patient.description = v;
    },
  },
} satisfies Record<
  string,
  {
    kind: IncidentChangeKind["kind"];
    get: (s: TIncidentSnapshotV3) => string | null;
    set: (s: TIncidentSnapshotV3, v: string | null) => void;
  }
>;

export type TextField = keyof typeof TEXT_FIELDS;

export async function setIncidentText(options: IncidentOperation & { field: TextField; value: string | null }) {
  const field = TEXT_FIELDS[options.field];
  return applyIncidentChange({
    ...options,
    mutate: ({ incident }) => {
      if (field.get(incident.snapshot) === options.value) return { changes: [], result: options.value };
      field.set(incident.snapshot, options.value);
      return { changes: [{ kind: field.kind }], result: options.value };
    },
  });
}
