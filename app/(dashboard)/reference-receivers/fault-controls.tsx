"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Countdown } from "@/app/_components/ui/countdown";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/react";
import type { ReceiverSummary } from "@/server/reference-receiver/list-receivers";
import { formatDuration } from "../_components/format";
import { calls, useMayCall, useNeededRole } from "../_components/may-call";

const MODES = ["ok", "http-500", "http-503", "http-201", "timeout", "slow", "flaky", "reject-token", "down"] as const;
const NETWORK_MODES = ["ok", "refused", "timeout"] as const;

function describe(f: ReceiverSummary["fault"]) {
  if (f.state === "none") return "No fault: behaving.";
  if (f.state === "scheduled") return `${f.mode} starts in ${formatDuration(f.remainingMs ?? 0)}`;
  return f.remainingMs === null
    ? `${f.mode} active until changed`
    : `${f.mode} active, ${formatDuration(f.remainingMs)} left`;
}

export function FaultControls({ receiver }: { receiver: ReceiverSummary }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: trpc.receivers.list.queryKey() });
  const clock = useQuery({ ...trpc.clock.show.queryOptions(), refetchInterval: 2_000 });
  // The next moment the fault changes on the workbench clock: its start when scheduled, else its end.
  const faultTarget =
    receiver.fault.state === "scheduled"
      ? receiver.fault.startsAt
      : receiver.fault.state === "active"
        ? receiver.fault.endsAt
        : null;
  const setFault = useMutation(trpc.receivers.setFault.mutationOptions({ onSuccess }));
  const [mode, setMode] = useState<(typeof MODES)[number]>("http-503");
  const [param, setParam] = useState("500");
  const [forText, setFor] = useState("");
  const [at, setAt] = useState("");
  const fullMode = mode === "slow" || mode === "flaky" ? `${mode}:${param}` : mode;
  const id = (s: string) => `${receiver.key}-${s}`;
  // Below the role the current faults stay readable; the controls that would be refused are not drawn.
  const mayFault = useMayCall("receivers.setFault");
  const faultRole = useNeededRole("receivers.setFault");

  return (
    <div className="flex flex-col gap-3 text-sm">
      <h3 className="font-semibold">Faults</h3>
      {!mayFault && <p className="text-xs text-slate-600">Read-only: setting faults needs the {faultRole} role.</p>}
      <p
        data-testid={`fault-${receiver.key}`}
        aria-live="polite"
        className={receiver.fault.state === "none" ? "text-slate-600" : "font-medium text-red-700"}
      >
        {describe(receiver.fault)}
      </p>
      {faultTarget && clock.data && (
        <Countdown
          targetIso={faultTarget}
          clockOffsetMs={clock.data.offsetMs}
          label={receiver.fault.state === "scheduled" ? "starts in" : "heals in"}
        />
      )}
      {mayFault && (
        <>
          <div className="grid grid-cols-2 gap-2">
            <label htmlFor={id("mode")} className="text-xs">
              mode
            </label>
            <select
              id={id("mode")}
              value={mode}
              onChange={(e) => setMode(e.target.value as typeof mode)}
              className="rounded border border-slate-300 px-2 py-1"
            >
              {MODES.map((m) => (
                <option key={m} value={m}>
                  {m === "slow" ? "slow:<ms>" : m === "flaky" ? "flaky:<percent>" : m}
                </option>
              ))}
            </select>
            {(mode === "slow" || mode === "flaky") && (
              <>
                <label htmlFor={id("param")} className="text-xs">
                  {mode === "slow" ? "delay (ms)" : "failing (%)"}
                </label>
                <input
                  id={id("param")}
                  value={param}
                  onChange={(e) => setParam(e.target.value)}
                  className="rounded border border-slate-300 px-2 py-1"
                />
              </>
            )}
            <label htmlFor={id("for")} className="text-xs">
              for (e.g. 10m; empty = until changed)
            </label>
            <input
              id={id("for")}
              value={forText}
              onChange={(e) => setFor(e.target.value)}
              className="rounded border border-slate-300 px-2 py-1"
            />
            <label htmlFor={id("at")} className="text-xs">
              starting (e.g. +5m; empty = now)
            </label>
            <input
              id={id("at")}
              value={at}
              onChange={(e) => setAt(e.target.value)}
              className="rounded border border-slate-300 px-2 py-1"
            />
          </div>
          <div className="flex gap-2">
            <button
              {...calls("receivers.setFault")}
              type="button"
              disabled={setFault.isPending}
              onClick={() =>
                setFault.mutate({ key: receiver.key, mode: fullMode, for: forText || undefined, at: at || undefined })
              }
              className="rounded-md bg-slate-900 px-3 py-1.5 text-white hover:bg-slate-700 disabled:opacity-50"
            >
              Apply fault
            </button>
            <button
              {...calls("receivers.setFault")}
              type="button"
              disabled={setFault.isPending}
              onClick={() => setFault.mutate({ key: receiver.key, mode: "ok" })}
              className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50 disabled:opacity-50"
            >
              Heal
            </button>
          </div>
        </>
      )}
      {setFault.error && (
        <p role="alert" className="text-xs text-red-700">
          {setFault.error.message}
        </p>
      )}
      <NetworkFault receiver={receiver} forText={forText} at={at} />
    </div>
  );
}

/** The engine's side: refused or timed-out connections to this receiver, for the same span as the fault above. */
function NetworkFault({ receiver, forText, at }: { receiver: ReceiverSummary; forText: string; at: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: trpc.receivers.list.queryKey() });
  const setNetwork = useMutation(trpc.receivers.setNetworkFault.mutationOptions({ onSuccess }));
  const [network, setNetworkMode] = useState<(typeof NETWORK_MODES)[number]>("refused");
  const mayNetwork = useMayCall("receivers.setNetworkFault");
  const id = (s: string) => `${receiver.key}-${s}`;
  return (
    <div className="mt-2 border-t border-slate-200 pt-3">
      <label htmlFor={id("network")} className="text-xs">
        Dispatcher-side network fault (engine → receiver)
      </label>
      <p className="text-xs text-slate-600">{describe(receiver.networkFault)}</p>
      {mayNetwork && (
        <div className="mt-1 flex gap-2">
          <select
            id={id("network")}
            value={network}
            onChange={(e) => setNetworkMode(e.target.value as typeof network)}
            className="rounded border border-slate-300 px-2 py-1"
          >
            {NETWORK_MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          <button
            {...calls("receivers.setNetworkFault")}
            type="button"
            disabled={setNetwork.isPending}
            onClick={() =>
              setNetwork.mutate({ key: receiver.key, mode: network, for: forText || undefined, at: at || undefined })
            }
            className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50 disabled:opacity-50"
          >
            Set
          </button>
        </div>
      )}
      {setNetwork.error && (
        <p role="alert" className="text-xs text-red-700">
          {setNetwork.error.message}
        </p>
      )}
    </div>
  );
}
