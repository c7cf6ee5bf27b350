"use client";
// The API calls inspector (docs/api-calls.md): filters, each client's verdict, the faults in force,
// then the list and the selected call SIDE BY SIDE (the detail sticky beside the list, both in the
// first viewport at 1280×800), as Deliveries shows outbound traffic.
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { useWorkbenchNow } from "@/app/_components/ui/use-workbench-now";
import { useTRPC } from "@/app/_trpc/react";
import { CallDetail } from "./call-detail";
import { type CallFilters, filterErrors, toQueryInput } from "./call-filters";
import { CallFiltersBar } from "./call-filters-bar";
import { CallListPanel } from "./call-list-panel";
import { ClientFaultsPanel } from "./client-faults-panel";
import { ClientVerdicts } from "./client-verdicts";
import { useCallFilters } from "./use-call-filters";
import { useCallList } from "./use-call-list";

export function ApiCallsInspector({ initial }: { initial: CallFilters }) {
  const trpc = useTRPC();
  const [filters, update] = useCallFilters(initial);
  const deferred = useDeferredValue(filters);
  const input = toQueryInput(deferred);
  const errors = filterErrors(filters);
  const clock = useQuery({ ...trpc.clock.show.queryOptions(), refetchInterval: 2_000 });
  const nowMs = useWorkbenchNow(clock.data?.offsetMs);
  const list = useCallList(input);
  const clients = useQuery(trpc.identity.clients.list.queryOptions());
  const clientIds = clients.data?.map((c) => c.clientId) ?? [];

  const select = (id: string) => {
    list.holdAtTop();
    update({ call: id });
  };

  return (
    <div className="grid gap-3">
      <CallFiltersBar filters={filters} errors={errors} clients={clientIds} onChange={update} />
      <ClientVerdicts
        within={input.within ?? "1h"}
        current={filters.client}
        onPick={(client) => update({ client, advice: client ? "1" : "", call: "" })}
      />
      {list.error && (
        <Alert tone="danger" title="Could not load API calls">
          {list.error.message}
        </Alert>
      )}
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,11fr)_minmax(0,9fr)] 2xl:grid-cols-[minmax(0,5fr)_minmax(0,4fr)]">
        <CallListPanel
          list={list}
          selected={filters.call}
          nowMs={nowMs}
          filtersInvalid={Object.values(errors).length > 0}
          onSelect={select}
        />
        <section
          aria-labelledby="h-call"
          data-testid="call-panel"
          className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-xs lg:sticky lg:top-14 lg:max-h-[calc(100vh-4.5rem)] lg:overflow-y-auto"
        >
          <header className="border-b border-slate-200 px-4 py-2.5">
            <h2 id="h-call" className="text-sm font-semibold text-slate-900">
              Call
            </h2>
          </header>
          <div className="min-w-0 p-4">
            {errors.call ? (
              <Alert tone="danger" title="Call not found">
                {errors.call}: pick one from the list.
              </Alert>
            ) : filters.call ? (
              <CallDetail key={filters.call} id={filters.call} />
            ) : (
              <p className="text-sm text-slate-600">
                Select a call (click it, or Tab to the list, ↑/↓ and Enter) to see what was sent and answered, what the
                token said, the advice it earned and what it changed.
              </p>
            )}
          </div>
        </section>
      </div>
      <ClientFaultsPanel clients={clientIds} />
    </div>
  );
}
