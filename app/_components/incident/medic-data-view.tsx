import type { TMedicData } from "@/server/incidents/snapshot.schema";
import { Badge } from "../ui/badge";
import { KeyValueList } from "../ui/key-value";

const CONDITIONS = ["diabetes", "epilepsy", "heart", "lungs", "psychiatric"] as const;
const ASSISTANCE = ["hearing", "vision", "speech"] as const;
const DONATION = { Donor: "Organ donor", NotDonor: "Not a donor", Unknown: "Unknown" } as const;

/** The v3 medicData shape (person, conditions, assistance, notes, medications, allergies, organ donation, directives). */
export function MedicDataView({ medic }: { medic: TMedicData | null }) {
  if (!medic) return <p className="text-sm text-slate-500">Medical data not known.</p>;
  const { person, conditions, assistance } = medic;
  const reportedConditions = CONDITIONS.filter((c) => conditions[c].reported);
  const needs = ASSISTANCE.filter((a) => assistance[a].reported);
  return (
    <div className="grid gap-4">
      <KeyValueList
        columns={2}
        items={[
          { label: "Sex", value: person.sex },
          { label: "Year of birth", value: person.yearOfBirth },
          { label: "Height", value: person.height !== null ? `${person.height} cm` : null },
          { label: "Weight", value: person.weight !== null ? `${person.weight} kg` : null },
        ]}
      />
      <div>
        <h3 className="text-xs text-slate-500">Conditions</h3>
        <div className="mt-1 flex flex-wrap gap-1.5">
          {reportedConditions.length ? (
            reportedConditions.map((c) => (
              <Badge key={c} tone="warning" className="capitalize">
                {c}
              </Badge>
            ))
          ) : (
            <span className="text-sm text-slate-500">none reported</span>
          )}
          {conditions.pregnancy.reported && (
            <Badge tone="warning">
              Pregnancy{conditions.pregnancy.description ? `: ${conditions.pregnancy.description}` : ""}
            </Badge>
          )}
        </div>
        {conditions.description && <p className="mt-1 text-sm">{conditions.description}</p>}
      </div>
      <div>
        <h3 className="text-xs text-slate-500">Needs assistance with</h3>
        <div className="mt-1 flex flex-wrap gap-1.5">
          {needs.length ? (
            needs.map((a) => (
              <Badge key={a} tone="info" className="capitalize">
                {a}
              </Badge>
            ))
          ) : (
            <span className="text-sm text-slate-500">none reported</span>
          )}
        </div>
        {assistance.description && <p className="mt-1 text-sm">{assistance.description}</p>}
      </div>
      <KeyValueList
        columns={2}
        items={[
          { label: "Medications", value: medic.medications },
          {
            label: "Allergies",
            value: medic.allergies && <span className="font-medium text-red-800">{medic.allergies}</span>,
          },
          {
            label: "Organ donation",
            value: `${DONATION[medic.organDonation.status]}${medic.organDonation.description ? ` — ${medic.organDonation.description}` : ""}`,
          },
          { label: "Advance directives", value: medic.advanceDirectives },
          { label: "Caller's notes", value: medic.notes.caller },
        ]}
      />
    </div>
  );
}
