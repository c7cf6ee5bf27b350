"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";

const STATUS_CLASS = {
  running: "text-sky-800",
  passed: "text-green-800",
  failed: "text-red-800",
  error: "text-red-800",
} as const;

export function RunHistory({ selected, onSelect }: { selected?: string; onSelect: (id: string) => void }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.conformance.history.queryOptions());
  if (history.isError)
    return (
      <p role="alert" className="text-red-700">
        Could not load the history: {history.error.message}
      </p>
    );
  const runs = history.data ?? [];
  return (
    <section aria-labelledby="history-title" className="rounded-lg border border-slate-200 bg-white">
      <h2 id="history-title" className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">
        History <span className="font-normal text-slate-500">({runs.length})</span>
      </h2>
      {runs.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">No runs yet.</p>
      ) : (
        <table className="min-w-full divide-y divide-slate-100 text-sm">
          <thead>
            <tr>
              {["Started", "Receiver", "Result", "Checks", "Report"].map((h) => (
                <th
                  key={h}
                  className="px-4 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500"
                >
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {runs.map((r) => (
              <tr
                key={r.id}
                aria-current={r.id === selected ? "true" : undefined}
                className={r.id === selected ? "bg-orange-50" : undefined}
              >
                <td className="px-4 py-2 font-mono text-xs">
                  {r.startedAt.toISOString().replace("T", " ").slice(0, 19)}
                </td>
                <td className="px-4 py-2">
                  <button
                    type="button"
                    onClick={() => onSelect(r.id)}
                    className="font-mono text-xs text-slate-900 underline hover:text-orange-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
                  >
                    {r.receiverUrl}
                  </button>
                </td>
                <td className={`px-4 py-2 font-medium ${STATUS_CLASS[r.status]}`}>{r.status}</td>
                <td className="px-4 py-2 text-xs text-slate-600">
                  {r.counts.passed} passed · {r.counts.failed} failed · {r.counts.skipped} skipped
                </td>
                <td className="px-4 py-2">
                  {r.status !== "running" && (
                    <a
                      className="text-xs text-orange-700 underline"
                      href={`/api/conformance/runs/${r.id}/report?download=1`}
                    >
                      Download
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
