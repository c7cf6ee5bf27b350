"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/app/_trpc/react";
import { countOutcomes, describeGroupProgress } from "./group-progress";

const GROUP_TITLES = {
  discovery: "Discovery (/about, /health)",
  tokens: "Token validation",
  delivery: "Delivery semantics",
} as const;
const BADGE = {
  pass: ["Pass", "bg-green-100 text-green-900"],
  fail: ["Fail", "bg-red-100 text-red-900"],
  skipped: ["Skipped", "bg-slate-100 text-slate-700"],
  error: ["Kit error", "bg-red-100 text-red-900"],
} as const;
const VERDICT = { running: "Running…", passed: "Passed", failed: "Failed", error: "Stopped on an error" } as const;

export function RunReport({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const run = useQuery({
    ...trpc.conformance.get.queryOptions({ id }),
    refetchInterval: (q) => (q.state.data?.status === "running" ? 400 : false),
  });
  const status = run.data?.status;
  useEffect(() => {
    if (status && status !== "running")
      void queryClient.invalidateQueries({ queryKey: trpc.conformance.history.queryKey() });
  }, [status, queryClient, trpc]);
  if (run.isError)
    return (
      <p role="alert" className="text-red-700">
        Could not load the run: {run.error.message}
      </p>
    );
  if (!run.data) return <p className="text-slate-500">Loading…</p>;
  const r = run.data;
  // While running, the checks still to come (of the declared contract's plan) are listed as pending, in run order.
  const pending = r.pending;
  const verdictClass =
    r.status === "passed"
      ? "bg-green-100 text-green-900"
      : r.status === "running"
        ? "bg-sky-100 text-sky-900"
        : "bg-red-100 text-red-900";

  return (
    <section aria-labelledby="run-title" className="rounded-lg border border-slate-200 bg-white">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <h2 id="run-title" className="text-sm font-semibold">
          Run against <span className="font-mono text-xs">{r.receiverUrl}</span>
          {r.aboutVersion && <span className="font-normal text-slate-500"> · declares {r.aboutVersion}</span>}
        </h2>
        <div className="flex items-center gap-3">
          <span data-testid="run-verdict" className={`rounded px-2 py-1 text-sm font-semibold ${verdictClass}`}>
            {VERDICT[r.status]}
          </span>
          {r.status !== "running" && (
            <a
              href={`/api/conformance/runs/${r.id}/report`}
              target="_blank"
              rel="noopener"
              className="text-sm font-medium text-orange-700 underline hover:text-orange-900"
            >
              HTML report
            </a>
          )}
        </div>
      </div>
      {r.clockOffsetMs !== 0 && (
        <p className="border-b border-slate-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
          The workbench clock was {Math.round(r.clockOffsetMs / 60_000)} min ahead of real time: the kit&apos;s tokens
          carried workbench time, so a receiver on real time sees them as not yet valid.
        </p>
      )}
      <div className="grid gap-4 p-4 md:grid-cols-3">
        {r.groups.map((g) => (
          <div key={g.group}>
            <div className="flex justify-between text-xs text-slate-600">
              <span id={`pg-${g.group}`}>{GROUP_TITLES[g.group]}</span>
              <span className={g.failed ? "text-red-700" : undefined} data-testid={`group-progress-${g.group}`}>
                {describeGroupProgress({
                  total: g.total,
                  ...countOutcomes(r.results, g.group),
                  running: r.status === "running",
                })}
              </span>
            </div>
            <div
              role="progressbar"
              aria-labelledby={`pg-${g.group}`}
              aria-valuemin={0}
              aria-valuemax={g.total}
              aria-valuenow={g.done}
              className="mt-1 h-2 rounded bg-slate-100"
            >
              <div
                className={`h-2 rounded ${g.failed ? "bg-red-500" : "bg-green-600"}`}
                style={{ width: `${(100 * g.done) / g.total}%` }}
              />
            </div>
          </div>
        ))}
      </div>
      <div className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-100 text-sm">
          <thead>
            <tr>
              {["Result", "Check", "Why"].map((h) => (
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
            {r.results.map((c) => (
              <tr key={c.id} data-testid={`check-${c.id}`}>
                <td className="px-4 py-2 align-top whitespace-nowrap">
                  <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${BADGE[c.outcome][1]}`}>
                    {BADGE[c.outcome][0]}
                  </span>
                  {!c.required && <span className="ml-1 text-xs text-amber-800">advisory</span>}
                </td>
                <td className="px-4 py-2 align-top">
                  {c.title}
                  <div className="font-mono text-xs text-slate-500">{c.id}</div>
                </td>
                <td className="px-4 py-2 align-top">
                  {c.outcome === "pass" ? c.note : c.outcome === "skipped" ? c.why : c.reason}
                  {c.risk && <p className="mt-1 text-red-800">{c.risk}</p>}
                </td>
              </tr>
            ))}
            {pending.map((c) => (
              <tr key={c.id} data-testid={`check-${c.id}`} className="text-slate-500">
                <td className="px-4 py-2 align-top">
                  <span className="rounded bg-slate-50 px-1.5 py-0.5 text-xs font-semibold text-slate-600">
                    Pending
                  </span>
                </td>
                <td className="px-4 py-2 align-top">
                  {c.title}
                  <div className="font-mono text-xs">{c.id}</div>
                </td>
                <td className="px-4 py-2 align-top" />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
