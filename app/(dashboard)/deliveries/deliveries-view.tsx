"use client";
// The outbox, live: every planned event with its state, attempts and next
// retry, filterable by integration and incident; integrations with their
// discovered capabilities and a Rediscover button. Refreshes every second.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/react";

const th = "px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500";
const td = "px-3 py-2 align-top text-sm";
const mono = "font-mono text-xs";
const STATE_STYLE: Record<string, string> = {
  pending: "bg-amber-100 text-amber-900", delivering: "bg-sky-100 text-sky-900", delivered: "bg-emerald-100 text-emerald-900", expired: "bg-red-100 text-red-900",
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function DeliveriesView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [integration, setIntegration] = useState("");
  const [incident, setIncident] = useState("");
  const incidentId = UUID.test(incident.trim()) ? incident.trim() : undefined;
  const integrations = useQuery({ ...trpc.integrations.list.queryOptions(), refetchInterval: 5_000 });
  const deliveries = useQuery({ ...trpc.deliveries.list.queryOptions({ integration: integration || undefined, incidentId, limit: 200 }), refetchInterval: 1_000 });
  const rediscover = useMutation(trpc.integrations.rediscover.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.integrations.list.queryKey() }) }));
  const resend = useMutation(trpc.deliveries.resend.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.deliveries.list.queryKey() }) }));

  return (
    <div className="grid gap-6">
      <section aria-labelledby="h-integrations" className="rounded-lg border border-slate-200 bg-white">
        <h2 id="h-integrations" className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">Integrations</h2>
        <table className="w-full">
          <thead><tr><th className={th}>Key</th><th className={th}>Receiver</th><th className={th}>/about</th><th className={th}>Declared</th><th className={th}></th></tr></thead>
          <tbody>
            {integrations.data?.map((i) => (
              <tr key={i.key} className="border-t border-slate-100">
                <td className={td}>{i.key}<div className="text-xs text-slate-500">{i.agency}</div></td>
                <td className={`${td} ${mono}`}>{i.resolvedUrl}{i.insecureDev && <span className="ml-1 rounded bg-slate-100 px-1">insecure-dev</span>}</td>
                <td className={td} data-testid={`discovery-${i.key}`}>
                  {i.discovery ? `${i.discovery.status}${i.discovery.version ? ` (v${i.discovery.version}, ${i.discovery.credential})` : ""}` : "not yet"}
                  {i.discovery?.error && <div className="text-xs text-red-700">{i.discovery.error}</div>}
                </td>
                <td className={`${td} ${mono}`}>{i.discovery?.flags.join(", ") || "—"}</td>
                <td className={td}>
                  <button type="button" disabled={rediscover.isPending} onClick={() => rediscover.mutate({ key: i.key })}
                    className="rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50">
                    Rediscover
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="h-deliveries" className="rounded-lg border border-slate-200 bg-white">
        <div className="flex flex-wrap items-end gap-3 border-b border-slate-200 px-4 py-3">
          <h2 id="h-deliveries" className="mr-auto text-sm font-semibold">Deliveries <span className="font-normal text-slate-500">(newest 200, oldest first, live)</span></h2>
          <label className="text-xs text-slate-600">Integration
            <select aria-label="Filter by integration" value={integration} onChange={(e) => setIntegration(e.target.value)} className="ml-2 rounded border border-slate-300 px-2 py-1 text-sm">
              <option value="">all</option>
              {integrations.data?.map((i) => <option key={i.key} value={i.key}>{i.key}</option>)}
            </select>
          </label>
          <label className="text-xs text-slate-600">Incident
            <input aria-label="Filter by incident" value={incident} onChange={(e) => setIncident(e.target.value)} placeholder="incident id" className="ml-2 w-80 rounded border border-slate-300 px-2 py-1 font-mono text-xs" />
          </label>
          {incidentId && (
            <button type="button" disabled={resend.isPending} onClick={() => resend.mutate({ incidentId, integration: integration || undefined })}
              className="rounded-md bg-slate-900 px-3 py-1.5 text-xs font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50">
              Resend incident
            </button>
          )}
        </div>
        {resend.error && <p role="alert" className="px-4 py-2 text-sm text-red-700">{resend.error.message}</p>}
        {deliveries.isError && <p role="alert" className="px-4 py-2 text-sm text-red-700">Could not load deliveries: {deliveries.error.message}</p>}
        <div className="overflow-x-auto">
          <table className="w-full" data-testid="deliveries-table">
            <thead><tr><th className={th}>Produced</th><th className={th}>Integration</th><th className={th}>Request</th><th className={th}>State</th><th className={th}>Attempts</th><th className={th}>Last result</th><th className={th}>Next retry</th></tr></thead>
            <tbody>
              {deliveries.data?.length === 0 && <tr><td colSpan={7} className={`${td} text-slate-500`}>No deliveries yet.</td></tr>}
              {deliveries.data?.map((d) => {
                const last = d.attempts.at(-1);
                return (
                  <tr key={d.requestId} className="border-t border-slate-100">
                    <td className={`${td} ${mono}`}>{d.producedAt.slice(11, 23)}</td>
                    <td className={td}>{d.integration}</td>
                    <td className={`${td} ${mono}`} title={`Service-Request-Id ${d.requestId}`}>{d.method} {d.path}<div className="text-slate-500">{d.event}</div></td>
                    <td className={td}><span className={`rounded px-2 py-0.5 text-xs font-medium ${STATE_STYLE[d.state]}`}>{d.state}</span></td>
                    <td className={td}>{d.attempts.length}</td>
                    <td className={`${td} ${mono}`}>{last ? `${last.status ?? "—"} · ${last.durationMs} ms${last.error ? ` · ${last.error}` : ""}` : "—"}</td>
                    <td className={`${td} ${mono}`}>{d.nextAttemptAt && d.attempts.length ? d.nextAttemptAt.slice(11, 23) : "—"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
