import type { TCaller } from "@/server/incidents/snapshot.schema";
import { reportedProblemsOf } from "./describe-incident";
import { PROBLEM_LABELS } from "./labels";

/** The problems that are reported, as the headline; when none is, that is said once. */
export function ReportedProblems({ problems }: { problems: TCaller["reportedProblems"] }) {
  const reported = reportedProblemsOf(problems);
  return (
    <div data-testid="reported-problems">
      {reported.length ? (
        <ul className="flex flex-wrap gap-2" aria-label="Reported problems">
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
        <p className="text-sm text-slate-600">No problem reported yet.</p>
      )}
    </div>
  );
}
