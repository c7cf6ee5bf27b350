"use client";
// The clients and their onboarding values (scopes, agencies, grants, token lifetime); a confidential
// client's secret can be rotated from its row (by an admin: without `onRotate` the rows have no action).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";
import { button, td } from "./admin-classes";
import { AdminTableHead } from "./admin-table";
import { calls } from "../_components/may-call";

type Client = inferRouterOutputs<AppRouter>["identity"]["clients"]["list"][number];

export function ClientsTable({
  clients,
  rotating,
  onRotate,
}: {
  /** undefined while loading. */
  clients: Client[] | undefined;
  rotating: boolean;
  onRotate?: (clientId: string) => void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-100">
        <AdminTableHead columns={["client_id", "Allowed scopes", "Allowed agency IDs", "Grants · token lifetime"]} />
        <tbody className="divide-y divide-slate-100">
          {clients?.map((c) => (
            <ClientRow key={c.clientId} client={c} rotating={rotating} onRotate={onRotate} />
          ))}
        </tbody>
      </table>
      {!clients && <p className="p-4 text-sm text-slate-600">Loading…</p>}
    </div>
  );
}

function ClientRow({
  client: c,
  rotating,
  onRotate,
}: {
  client: Client;
  rotating: boolean;
  onRotate?: (clientId: string) => void;
}) {
  return (
    <tr>
      <td className={td}>
        <div className="font-mono text-xs">{c.clientId}</div>
        <div className="text-xs text-slate-600">
          {c.displayName}
          {c.isPublic ? " · public (PKCE)" : ""}
        </div>
      </td>
      <td className={`${td} font-mono text-xs`}>{c.scopes.join(" ")}</td>
      <td className={td}>
        {c.agencies.length ? (
          c.agencies.map((a) => (
            <div key={a.id}>
              <span className="font-mono text-xs">{a.id}</span>{" "}
              <span className="text-xs text-slate-600">{a.displayName}</span>
            </div>
          ))
        ) : (
          <span className="text-xs text-slate-600">none</span>
        )}
      </td>
      <td className={`${td} text-xs`}>
        {c.grantTypes.join(", ")} · {c.accessTokenLifetimeS} s
      </td>
      <td className={td}>
        {!c.isPublic && onRotate && (
          <button
            {...calls("identity.clients.rotateSecret")}
            type="button"
            className={button}
            disabled={rotating}
            onClick={() => onRotate(c.clientId)}
            aria-label={`Rotate secret of ${c.clientId}`}
          >
            Rotate secret
          </button>
        )}
      </td>
    </tr>
  );
}
