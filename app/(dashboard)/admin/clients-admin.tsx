"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/_trpc/react";
import { SecretOnce } from "./secret-once";
import { ClientForm } from "@/app/_components/ui/form";
import { SCOPE_NAMES, SCOPES } from "@/server/identity/scopes";

const th = "px-4 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600";
const td = "px-4 py-2 align-top text-sm";
const button =
  "rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50";
export function ClientsAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const clients = useQuery(trpc.identity.clients.list.queryOptions());
  const directory = useQuery(trpc.directory.list.queryOptions());
  const [shown, setShown] = useState<{ clientId: string; clientSecret: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.identity.clients.list.queryKey() });
  const rotate = useMutation(
    trpc.identity.clients.rotateSecret.mutationOptions({
      onSuccess: (r) => {
        setShown(r);
        void refresh();
      },
    }),
  );
  const create = useMutation(
    trpc.identity.clients.create.mutationOptions({
      onSuccess: (r) => {
        setShown(r);
        void refresh();
      },
    }),
  );

  function onCreate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    create.mutate({
      clientId: String(f.get("clientId")),
      displayName: String(f.get("displayName")),
      scopes: f.getAll("scopes").map(String),
      agencyIds: f.getAll("agencyIds").map(String),
      accessTokenLifetimeS: Number(f.get("lifetime") || 3600),
    });
  }

  return (
    <section aria-labelledby="clients-h" className="rounded-lg border border-slate-200 bg-white">
      <h2 id="clients-h" className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">
        Clients
      </h2>
      {shown && (
        <div className="p-4">
          <SecretOnce clientId={shown.clientId} secret={shown.clientSecret} onDismiss={() => setShown(null)} />
        </div>
      )}
      {rotate.error && (
        <p role="alert" className="px-4 py-2 text-sm text-red-700">
          {rotate.error.message}
        </p>
      )}
      <div className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-100">
          <thead>
            <tr>
              <th className={th}>client_id</th>
              <th className={th}>Allowed scopes</th>
              <th className={th}>Allowed agency IDs</th>
              <th className={th}>Grants · token lifetime</th>
              <th className={th}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {clients.data?.map((c) => (
              <tr key={c.clientId}>
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
                  {!c.isPublic && (
                    <button
                      type="button"
                      className={button}
                      disabled={rotate.isPending}
                      onClick={() => rotate.mutate({ clientId: c.clientId })}
                      aria-label={`Rotate secret of ${c.clientId}`}
                    >
                      Rotate secret
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!clients.data && <p className="p-4 text-sm text-slate-600">Loading…</p>}
      </div>
      <ClientForm
        onSubmit={onCreate}
        className="grid gap-3 border-t border-slate-200 p-4 text-sm"
        aria-labelledby="create-h"
      >
        <h3 id="create-h" className="font-semibold">
          Create a client (client_credentials)
        </h3>
        <div className="flex flex-wrap gap-4">
          <label className="grid gap-1">
            client_id
            <input
              name="clientId"
              required
              pattern="[a-z0-9][a-z0-9._\-]{2,62}"
              className="rounded border border-slate-400 px-2 py-1 font-mono"
            />
          </label>
          <label className="grid gap-1">
            Display name
            <input name="displayName" required className="rounded border border-slate-400 px-2 py-1" />
          </label>
          <label className="grid gap-1">
            Token lifetime (s)
            <input
              name="lifetime"
              type="number"
              min={60}
              max={86400}
              defaultValue={3600}
              className="w-28 rounded border border-slate-400 px-2 py-1"
            />
          </label>
        </div>
        <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
          <legend className="mb-1 font-medium">Allowed scopes</legend>
          {SCOPE_NAMES.map((s) => (
            <label key={s} title={SCOPES[s].allows} className="flex items-center gap-1 font-mono text-xs">
              <input type="checkbox" name="scopes" value={s} />
              {s}
            </label>
          ))}
        </fieldset>
        <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
          <legend className="mb-1 font-medium">Allowed agencies</legend>
          {directory.data?.agencies.map((a) => (
            <label key={a.id} className="flex items-center gap-1 text-xs">
              <input type="checkbox" name="agencyIds" value={a.id} />
              {a.displayName}
            </label>
          ))}
        </fieldset>
        {create.error && (
          <p role="alert" className="text-red-700">
            {create.error.message}
          </p>
        )}
        <div>
          <button type="submit" className={button} disabled={create.isPending}>
            Create client
          </button>
        </div>
      </ClientForm>
    </section>
  );
}
