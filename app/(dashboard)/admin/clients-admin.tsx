"use client";
// The Admin page's clients: the table, a secret shown once after a rotation or a creation, and the
// form that creates a client.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/react";
import { ActionError } from "./admin-table";
import { ClientsTable } from "./clients-table";
import { CreateClientForm } from "./create-client-form";
import { SecretOnce } from "./secret-once";
import { useMayCall } from "../_components/may-call";

export function ClientsAdmin() {
  const trpc = useTRPC();
  const clients = useQuery(trpc.identity.clients.list.queryOptions());
  const { shown, dismiss, rotate, create } = useClientSecrets();
  const mayRotate = useMayCall("identity.clients.rotateSecret");
  const mayCreate = useMayCall("identity.clients.create");
  return (
    <section aria-labelledby="clients-h" className="rounded-lg border border-slate-200 bg-white">
      <h2 id="clients-h" className="border-b border-slate-200 px-4 py-3 text-sm font-semibold">
        Clients
      </h2>
      {shown && (
        <div className="p-4">
          <SecretOnce clientId={shown.clientId} secret={shown.clientSecret} onDismiss={dismiss} />
        </div>
      )}
      <ActionError errors={[rotate.error]} />
      <ClientsTable
        clients={clients.data}
        rotating={rotate.isPending}
        onRotate={mayRotate ? (clientId) => rotate.mutate({ clientId }) : undefined}
      />
      {mayCreate && (
        <CreateClientForm creating={create.isPending} error={create.error} onCreate={(input) => create.mutate(input)} />
      )}
    </section>
  );
}

/** Rotating a secret and creating a client: each shows the new secret once and reloads the table. */
function useClientSecrets() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<{ clientId: string; clientSecret: string } | null>(null);
  const onSuccess = (r: { clientId: string; clientSecret: string }) => {
    setShown(r);
    void queryClient.invalidateQueries({ queryKey: trpc.identity.clients.list.queryKey() });
  };
  const rotate = useMutation(trpc.identity.clients.rotateSecret.mutationOptions({ onSuccess }));
  const create = useMutation(trpc.identity.clients.create.mutationOptions({ onSuccess }));
  return { shown, dismiss: () => setShown(null), rotate, create };
}
