"use client";
// Breaking the platform on purpose, for a client (docs/api-calls.md): the faults in force, and for an
// integrator or admin a form to set one and a way to clear each (tRPC calls.faults.*; a viewer reads).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { ClientForm, Field, Input, Select } from "@/app/_components/ui/form";
import { useTRPC } from "@/app/_trpc/react";
import { useMayCall } from "../_components/may-call";

const MODES = ["http-503", "http-500", "http-429", "slow:2000", "reset"] as const;

export function ClientFaultsPanel({ clients }: { clients: string[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mayFault = useMayCall("calls.faults.set");
  const faults = useQuery({ ...trpc.calls.faults.list.queryOptions(), refetchInterval: 5_000 });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.calls.faults.list.queryKey() });
  const set = useMutation(trpc.calls.faults.set.mutationOptions({ onSuccess: refresh }));
  const clear = useMutation(trpc.calls.faults.clear.mutationOptions({ onSuccess: refresh }));
  const [limit, setLimit] = useState<"count" | "for" | "percent" | "none">("count");

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? "").trim();
    const amount = text("amount");
    set.mutate({
      clientId: text("clientId") || null,
      surface: text("surface") as "token" | "v1" | "account",
      operation: text("operation") || null,
      mode: text("mode"),
      retryAfterS: text("retryAfterS") ? Number(text("retryAfterS")) : undefined,
      count: limit === "count" ? Number(amount) : undefined,
      percent: limit === "percent" ? Number(amount) : undefined,
      for: limit === "for" ? amount : undefined,
    });
  }

  const active = faults.data ?? [];
  return (
    <section aria-labelledby="h-faults" className="rounded-lg border border-slate-200 bg-white shadow-xs">
      <header className="border-b border-slate-200 px-4 py-2">
        <h2 id="h-faults" className="text-sm font-semibold text-slate-900">
          Faults for clients <span className="font-normal text-slate-600">(the platform answers these instead)</span>
        </h2>
      </header>
      <div className="grid gap-3 p-4">
        {active.length === 0 ? (
          <p className="text-sm text-slate-600">No fault: the platform answers every call.</p>
        ) : (
          <ul className="grid gap-1" data-testid="client-faults">
            {active.map((fault) => (
              <li key={fault.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <span>{fault.description}</span>
                {mayFault && (
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={clear.isPending}
                    onClick={() => clear.mutate({ id: fault.id })}
                  >
                    Clear
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {(set.error ?? clear.error) && (
          <Alert tone="danger" title="The fault was refused">
            {(set.error ?? clear.error)!.message}
          </Alert>
        )}
        {mayFault && (
          <ClientForm onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" aria-label="Set a fault">
            <div className="w-40">
              <Field id="fault-client" label="Client">
                <Input
                  id="fault-client"
                  name="clientId"
                  list="fault-clients"
                  placeholder="every client"
                  maxLength={64}
                />
                <datalist id="fault-clients">
                  {clients.map((c) => (
                    <option key={c} value={c} />
                  ))}
                </datalist>
              </Field>
            </div>
            <div className="w-40">
              <Field id="fault-surface" label="Surface">
                <Select id="fault-surface" name="surface" defaultValue="token">
                  <option value="token">/connect/token</option>
                  <option value="v1">/v1</option>
                  <option value="account">/Account</option>
                </Select>
              </Field>
            </div>
            <div className="w-56">
              <Field id="fault-operation" label="Operation (optional)">
                <Input id="fault-operation" name="operation" placeholder="e.g. POST /v1/incidents" maxLength={200} />
              </Field>
            </div>
            <div className="w-32">
              <Field id="fault-mode" label="Answer">
                <Select id="fault-mode" name="mode" defaultValue="http-503">
                  {MODES.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
            <div className="w-28">
              <Field id="fault-retry" label="Retry-After (s)">
                <Input id="fault-retry" name="retryAfterS" type="number" min={0} max={3600} placeholder="5" />
              </Field>
            </div>
            <div className="w-40">
              <Field id="fault-limit" label="For">
                <Select id="fault-limit" value={limit} onChange={(e) => setLimit(e.target.value as typeof limit)}>
                  <option value="count">next N calls</option>
                  <option value="for">a while</option>
                  <option value="percent">a % of calls</option>
                  <option value="none">until cleared</option>
                </Select>
              </Field>
            </div>
            {limit !== "none" && (
              <div className="w-24">
                <Field id="fault-amount" label={limit === "count" ? "Calls" : limit === "for" ? "Duration" : "Percent"}>
                  <Input
                    id="fault-amount"
                    name="amount"
                    required
                    defaultValue={limit === "count" ? "3" : limit === "for" ? "10m" : "50"}
                    key={limit}
                    maxLength={10}
                  />
                </Field>
              </div>
            )}
            <Button type="submit" disabled={set.isPending}>
              Set fault
            </Button>
          </ClientForm>
        )}
      </div>
    </section>
  );
}
