"use client";
// A new client_credentials client: its id, name, token lifetime, and the scopes and agencies it may
// ask for. Its secret is shown once by the section above the table.
import { useQuery } from "@tanstack/react-query";
import type { FormEvent } from "react";
import type { z } from "zod";
import { ClientForm } from "@/app/_components/ui/form";
import { useTRPC } from "@/app/_trpc/react";
import type { ZCreateClientInput } from "@/server/identity/manage-clients";
import { SCOPE_NAMES, SCOPES } from "@/server/identity/scopes";
import { button } from "./admin-classes";
import { DEFAULT_TOKEN_LIFETIME_S, readClientForm } from "./read-client-form";
import { calls } from "../_components/may-call";

export function CreateClientForm({
  creating,
  error,
  onCreate,
}: {
  creating: boolean;
  error: { message: string } | null;
  onCreate: (input: z.input<typeof ZCreateClientInput>) => void;
}) {
  const trpc = useTRPC();
  const directory = useQuery(trpc.directory.list.queryOptions());

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    onCreate(readClientForm(new FormData(e.currentTarget)));
  }

  return (
    <ClientForm
      onSubmit={onSubmit}
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
            defaultValue={DEFAULT_TOKEN_LIFETIME_S}
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
      {error && (
        <p role="alert" className="text-red-700">
          {error.message}
        </p>
      )}
      <div>
        <button {...calls("identity.clients.create")} type="submit" className={button} disabled={creating}>
          Create client
        </button>
      </div>
    </ClientForm>
  );
}
