import type { TCaller } from "@/server/incidents/snapshot.schema";
import { Badge } from "../ui/badge";
import { KeyValueList } from "../ui/key-value";
import { languageName } from "./labels";

/** Who is calling and how to reach them or their people. */
export function CallerDetails({ caller }: { caller: TCaller }) {
  const home = caller.permanentResidence;
  return (
    <div className="grid gap-4">
      <KeyValueList
        columns={2}
        items={[
          { label: "Name", value: caller.fullName && <span className="font-semibold">{caller.fullName}</span> },
          {
            label: "Phone",
            value: caller.phoneNumber && (
              <a className="font-mono text-sm underline-offset-2 hover:underline" href={`tel:${caller.phoneNumber}`}>
                {caller.phoneNumber}
              </a>
            ),
          },
          { label: "Email", value: caller.email },
          { label: "Insurance number", value: caller.insuranceNumber, mono: true },
          {
            label: "Languages",
            value: caller.languages.length ? (
              <span className="flex flex-wrap gap-1">
                {caller.languages.map((l) => (
                  <Badge key={l}>{languageName(l)}</Badge>
                ))}
              </span>
            ) : null,
          },
          {
            label: "Permanent residence",
            value:
              home && (home.address || home.coordinates) ? (
                <>
                  {home.address ?? <span className="text-slate-500">address not known</span>}
                  {home.coordinates && (
                    <span className="block font-mono text-xs text-slate-500">
                      {home.coordinates.latitude.toFixed(5)}, {home.coordinates.longitude.toFixed(5)}
                    </span>
                  )}
                </>
              ) : null,
          },
        ]}
      />
      <div>
        <h3 className="text-xs text-slate-500">Contacts</h3>
        {caller.contacts.length ? (
          <ul className="mt-1 divide-y divide-slate-100 text-sm">
            {caller.contacts.map((c, i) => (
              <li key={i} className="flex flex-wrap items-baseline gap-x-2 py-1">
                <span className="font-medium">{c.name}</span>
                {c.relation && <span className="text-slate-500">({c.relation})</span>}
                <span className="font-mono text-xs">{c.phoneNumber ?? "no phone"}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">—</p>
        )}
      </div>
    </div>
  );
}
