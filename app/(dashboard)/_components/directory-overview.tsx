"use client";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTRPC } from "@/app/_trpc/react";

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white" aria-labelledby={`h-${title}`}>
      <h2 id={`h-${title}`} className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">
        {title} <span className="font-normal text-slate-500">({count})</span>
      </h2>
      <div className="overflow-x-auto">{children}</div>
    </section>
  );
}

const th = "px-4 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500";
const td = "px-4 py-2 align-top text-sm";
const mono = "font-mono text-xs";

export function DirectoryOverview() {
  const trpc = useTRPC();
  const directory = useQuery(trpc.directory.list.queryOptions());
  const info = useQuery(trpc.system.info.queryOptions());
  if (directory.isError) return <p role="alert" className="text-red-700">Could not load the directory: {directory.error.message}</p>;
  if (!directory.data) return <p className="text-slate-500">Loading…</p>;
  const { agencies, clients, users, integrations } = directory.data;
  const agencyName = new Map(agencies.map((a) => [a.id, a.displayName]));

  return (
    <div className="grid gap-6">
      {info.data && (
        <dl className="grid grid-cols-2 gap-4 rounded-lg border border-slate-200 bg-white p-4 text-sm md:grid-cols-4">
          {[
            ["{auth_url}", info.data.authUrl],
            ["{base_url}", info.data.baseUrl],
            ["{portal_url}", info.data.portalUrl],
            ["Database", info.data.database === "embedded" ? "embedded PostgreSQL" : "external PostgreSQL"],
          ].map(([k, v]) => (
            <div key={k}>
              <dt className="text-xs text-slate-500">{k}</dt>
              <dd className="font-mono text-xs">{v}</dd>
            </div>
          ))}
        </dl>
      )}

      <Section title="Agencies" count={agencies.length}>
        <table className="min-w-full divide-y divide-slate-100">
          <thead><tr><th className={th}>Name</th><th className={th}>Type</th><th className={th}>Id</th><th className={th}>Related agencies</th></tr></thead>
          <tbody className="divide-y divide-slate-100">
            {agencies.map((a) => (
              <tr key={a.id}>
                <td className={td}>{a.displayName}</td>
                <td className={td}>{a.type}</td>
                <td className={`${td} ${mono}`}>{a.id}</td>
                <td className={td}>{a.relatedAgencyIds.map((id) => agencyName.get(id)).join(", ") || "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section title="Clients" count={clients.length}>
        <table className="min-w-full divide-y divide-slate-100">
          <thead><tr><th className={th}>client_id</th><th className={th}>Grants</th><th className={th}>Scopes</th><th className={th}>Agencies</th></tr></thead>
          <tbody className="divide-y divide-slate-100">
            {clients.map((c) => (
              <tr key={c.clientId}>
                <td className={`${td} ${mono}`}>{c.clientId}{c.isPublic && <span className="ml-2 rounded bg-slate-100 px-1 text-slate-600">public</span>}</td>
                <td className={td}>{c.grantTypes.join(", ")}</td>
                <td className={`${td} ${mono}`}>{c.scopes.join(" ")}</td>
                <td className={td}>{c.agencyIds.map((id) => agencyName.get(id)).join(", ") || "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section title="Users" count={users.length}>
        <table className="min-w-full divide-y divide-slate-100">
          <thead><tr><th className={th}>Username</th><th className={th}>Name</th><th className={th}>Agency</th><th className={th}>Role</th><th className={th}>Sign-in</th></tr></thead>
          <tbody className="divide-y divide-slate-100">
            {users.map((u) => (
              <tr key={u.id}>
                <td className={`${td} ${mono}`}>{u.username}</td>
                <td className={td}>{u.name}</td>
                <td className={td}>{agencyName.get(u.agencyId)}</td>
                <td className={td}>{u.role ?? "—"}</td>
                <td className={td}>{u.canSignIn ? "allowed" : <span className="font-medium text-red-700">not allowed</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section title="Integrations" count={integrations.length}>
        <table className="min-w-full divide-y divide-slate-100">
          <thead><tr><th className={th}>Key</th><th className={th}>Agency</th><th className={th}>Receiver</th><th className={th}>Contract</th><th className={th}>Transport</th></tr></thead>
          <tbody className="divide-y divide-slate-100">
            {integrations.map((i) => (
              <tr key={i.key}>
                <td className={`${td} ${mono}`}>{i.key}</td>
                <td className={td}>{agencyName.get(i.agencyId)}</td>
                <td className={`${td} ${mono}`}>{i.receiverUrl}</td>
                <td className={td}>v{i.contractVersion}</td>
                <td className={td}>{i.insecureDev ? "insecure-dev (http allowed)" : "HTTPS only"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
    </div>
  );
}
