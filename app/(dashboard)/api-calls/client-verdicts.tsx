"use client";
// Each client seen in the window with its verdict from the spec's rules: a click narrows the list
// to that client's calls with advice (the CLI: `workbench client-report CLIENT`).
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/app/_components/ui/badge";
import { cn } from "@/app/_components/ui/cn";
import { useTRPC } from "@/app/_trpc/react";

export function ClientVerdicts({
  within,
  current,
  onPick,
}: {
  within: "15m" | "1h" | "6h" | "24h";
  current: string;
  onPick: (clientId: string) => void;
}) {
  const trpc = useTRPC();
  const verdicts = useQuery({ ...trpc.calls.verdicts.queryOptions({ within }), refetchInterval: 5_000 });
  if (!verdicts.data || verdicts.data.length === 0) return null;
  return (
    <section aria-label="Verdict per client" className="flex flex-wrap gap-2" data-testid="client-verdicts">
      {verdicts.data.map((v) => (
        <button
          key={v.clientId}
          type="button"
          onClick={() => onPick(v.clientId === current ? "" : v.clientId)}
          aria-pressed={v.clientId === current}
          className={cn(
            "w-80 max-w-full min-w-0 rounded-lg border bg-white px-3 py-2 text-left text-sm shadow-xs hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500",
            v.clientId === current ? "border-orange-400" : "border-slate-200",
          )}
          title={v.rules.map((r) => `${r.title} (${r.count}×)`).join("\n") || "No advice"}
        >
          <span className="flex items-center justify-between gap-3">
            <span className="truncate font-mono text-xs font-semibold">{v.clientId}</span>
            <Badge tone={v.verdict === "errors" ? "danger" : v.verdict === "warnings" ? "warning" : "success"}>
              {v.verdict === "clean" ? "clean" : `${v.errors} errors · ${v.warnings} warnings`}
            </Badge>
          </span>
          <span className="mt-0.5 block truncate text-xs text-slate-600">
            {v.calls} calls ·{" "}
            {v.rules.length ? `${v.rules.length} rules broken: ${v.rules.map((r) => r.rule).join(", ")}` : "no advice"}
          </span>
        </button>
      ))}
    </section>
  );
}
