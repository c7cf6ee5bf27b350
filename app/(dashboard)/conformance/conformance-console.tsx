"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/_trpc/react";
import { RunReport } from "./run-report";
import { RunHistory } from "./run-history";
import { ClientForm } from "@/app/_components/ui/form";
import { RoleGate } from "../_components/role-gate";
import { calls } from "../_components/may-call";

const input =
  "w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500";

export function ConformanceConsole() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const directory = useQuery(trpc.directory.list.queryOptions());
  const [receiverUrl, setReceiverUrl] = useState("");
  const [agencyId, setAgencyId] = useState("");
  const [insecureDev, setInsecureDev] = useState(false);
  const [selected, setSelected] = useState<string | undefined>();
  const start = useMutation(
    trpc.conformance.start.mutationOptions({
      onSuccess: ({ id }) => {
        setSelected(id);
        void queryClient.invalidateQueries({ queryKey: trpc.conformance.history.queryKey() });
      },
    }),
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate({ receiverUrl, agencyId: agencyId || undefined, insecureDev });
  };

  return (
    <div className="grid gap-6">
      <RoleGate call="conformance.start" what="Running the conformance kit">
        <ClientForm
          onSubmit={submit}
          className="grid max-w-3xl gap-4 rounded-lg border border-slate-200 bg-white p-6"
          aria-label="Run the conformance kit"
        >
          <div>
            <label htmlFor="receiver-url" className="text-sm font-medium">
              Receiver URL{" "}
              <span className="font-normal text-slate-500">
                ({"{receiver_url}"}: /about, /health and /v3/… (or /v2/…) hang below it)
              </span>
            </label>
            <input
              id="receiver-url"
              name="receiverUrl"
              type="url"
              required
              placeholder="https://cad.example.com/webhooks"
              value={receiverUrl}
              onChange={(e) => setReceiverUrl(e.target.value)}
              className={`${input} mt-1 font-mono`}
            />
            {!!directory.data?.integrations.length && (
              <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                Embedded receivers:
                {directory.data.integrations.map((i) => (
                  <button
                    key={i.key}
                    type="button"
                    className="rounded border border-slate-300 px-2 py-0.5 font-mono hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
                    onClick={() => {
                      setReceiverUrl(new URL(i.receiverUrl, window.location.origin).toString());
                      setAgencyId(i.agencyId);
                    }}
                  >
                    {i.key}
                  </button>
                ))}
              </p>
            )}
          </div>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={insecureDev} onChange={(e) => setInsecureDev(e.target.checked)} />
            <span>
              insecure-dev{" "}
              <span className="text-slate-500">
                (plain http and self-signed certificates; loopback, or hosts the operator allows)
              </span>
            </span>
          </label>
          <div>
            <label htmlFor="agency" className="text-sm font-medium">
              Agency the receiver serves <span className="font-normal text-slate-500">(token audience)</span>
            </label>
            <select
              id="agency"
              value={agencyId}
              onChange={(e) => setAgencyId(e.target.value)}
              className={`${input} mt-1`}
            >
              <option value="">From its integration (else North PSAP)</option>
              {directory.data?.agencies.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.displayName}
                </option>
              ))}
            </select>
          </div>
          <div className="flex items-center gap-3">
            <button
              {...calls("conformance.start")}
              type="submit"
              disabled={start.isPending}
              className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50"
            >
              Run checks
            </button>
            {start.error && (
              <p role="alert" className="text-sm text-red-700">
                {start.error.message}
              </p>
            )}
          </div>
        </ClientForm>
      </RoleGate>
      {selected && <RunReport id={selected} />}
      <RunHistory selected={selected} onSelect={setSelected} />
    </div>
  );
}
