import { REPORTED_PROBLEMS, type TCaller } from "@/server/incidents/snapshot.schema";
import { PROBLEM_LABELS } from "./labels";

/** The reported problems are the headline; the rest are listed quietly so "not reported" is also information. */
export function ReportedProblems({ problems }: { problems: TCaller["reportedProblems"] }) {
  const reported = REPORTED_PROBLEMS.filter((p) => problems[p]);
  const others = REPORTED_PROBLEMS.filter((p) => !problems[p]);
  return (
    <div data-testid="reported-problems">
      {reported.length ? (
        <ul className="flex flex-wrap gap-2" aria-label="Reported">
          {reported.map((p) => (
            <li
              key={p}
              className="rounded-md bg-red-50 px-2.5 py-1 text-sm font-semibold text-red-900 ring-1 ring-inset ring-red-200"
            >
              {PROBLEM_LABELS[p]}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">No problem reported.</p>
      )}
      {others.length > 0 && (
        <p className="mt-2 text-xs text-slate-500">
          Not reported: {others.map((p) => PROBLEM_LABELS[p].toLowerCase()).join(", ")}.
        </p>
      )}
    </div>
  );
}
