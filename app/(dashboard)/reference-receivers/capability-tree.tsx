"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/react";
import type { ReceiverSummary } from "@/server/reference-receiver/list-receivers";
import { calls, useMayCall, useNeededRole } from "../_components/may-call";

type Node = { name: string; flag?: string; enabled?: boolean; children: Node[] };

/** The flat flag list as the tree the spec draws under supports.incident. */
function buildTree(flags: ReceiverSummary["flags"]): Node {
  const root: Node = { name: "incident", children: [] };
  for (const { flag, enabled } of flags) {
    let node = root;
    const parts = flag.split(".");
    parts.forEach((part, i) => {
      let child = node.children.find((c) => c.name === part && (i < parts.length - 1 ? !c.flag : true));
      if (!child) node.children.push((child = { name: part, children: [] }));
      if (i === parts.length - 1) Object.assign(child, { flag, enabled });
      node = child;
    });
  }
  return root;
}

export function CapabilityTree({ receiver }: { receiver: ReceiverSummary }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [version, setVersion] = useState(receiver.declaration.version);
  const save = useMutation(
    trpc.receivers.setCapabilities.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.receivers.list.queryKey() }),
    }),
  );
  // Below the role the flags stay visible as they are, switched off for input, with the reason on hover.
  const mayChange = useMayCall("receivers.setCapabilities");
  const needed = useNeededRole("receivers.setCapabilities");
  const readOnlyReason = mayChange ? undefined : `Changing what this receiver declares needs the ${needed} role`;
  const set = (flag: string, value: boolean) =>
    save.mutate({ key: receiver.key, set: { [`incident.${flag}`]: value } });

  const render = (node: Node, depth: number) =>
    node.children.map((child) => (
      <li key={`${child.name}-${child.flag ?? "group"}`} style={{ paddingLeft: depth * 12 }}>
        {child.flag ? (
          <label className="flex items-center gap-2 py-0.5">
            <input
              type="checkbox"
              checked={child.enabled}
              disabled={save.isPending || !mayChange}
              title={readOnlyReason}
              onChange={(e) => set(child.flag!, e.target.checked)}
              aria-label={`${receiver.key}: incident.${child.flag}`}
            />
            <span className="font-mono text-xs">{child.name}</span>
          </label>
        ) : (
          <span className="font-mono text-xs text-slate-500">{child.name}</span>
        )}
        {child.children.length > 0 && <ul>{render(child, depth + 1)}</ul>}
      </li>
    ));

  return (
    <fieldset className="text-sm">
      <legend className="mb-2 font-semibold">Capabilities (supports.incident)</legend>
      {readOnlyReason && <p className="mb-2 text-xs text-slate-600">Read-only: {readOnlyReason.toLowerCase()}.</p>}
      <ul>{render(buildTree(receiver.flags), 0)}</ul>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <label className="flex items-center gap-2">
          <span className="text-xs">version</span>
          <input
            value={version}
            onChange={(e) => setVersion(e.target.value)}
            readOnly={!mayChange}
            title={readOnlyReason}
            className="w-16 rounded border border-slate-300 px-2 py-1 font-mono text-xs"
            aria-label={`${receiver.key}: version`}
          />
        </label>
        {mayChange && (
          <button
            {...calls("receivers.setCapabilities")}
            type="button"
            disabled={save.isPending || version === receiver.declaration.version}
            onClick={() => save.mutate({ key: receiver.key, version })}
            className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-slate-50 disabled:opacity-50"
          >
            Set version
          </button>
        )}
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            checked={receiver.declaration.allowsMonitoring}
            disabled={save.isPending || !mayChange}
            title={readOnlyReason}
            onChange={(e) => save.mutate({ key: receiver.key, allowsMonitoring: e.target.checked })}
          />
          <span className="text-xs">allowsMonitoring</span>
        </label>
      </div>
      {save.error && (
        <p role="alert" className="mt-2 text-xs text-red-700">
          {save.error.message}
        </p>
      )}
    </fieldset>
  );
}
