"use client";
// An integration's attached `workbench listen` (docs/listen.md): its traffic goes through the
// listener, not to the receiver URL shown beside it. Who attached it, since when, from where, where
// it forwards, and whether it is connected now (a disconnected one keeps its integration's events
// waiting and retried until it is back).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Badge } from "@/app/_components/ui/badge";
import { Button } from "@/app/_components/ui/button";
import { formatExact } from "@/app/_components/ui/format-age";
import { useTRPC } from "@/app/_trpc/react";
import { calls, useMayCall } from "./may-call";

export type ListenerView = {
  by: string;
  role: string;
  since: string;
  from: string;
  forwardTo: string;
  connected: boolean;
  disconnectedAt: string | null;
};

export function ListenerNote({ integration, listener: l }: { integration: string; listener: ListenerView }) {
  return (
    <div className="grid gap-1 font-sans text-xs text-slate-700" data-testid="listener-note">
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge tone="brand">via listener</Badge>
        {l.connected ? (
          <Badge tone="success">connected</Badge>
        ) : (
          <Badge tone="warning">
            disconnected{l.disconnectedAt ? ` since ${formatExact(l.disconnectedAt)}` : ""}: events wait
          </Badge>
        )}
        <DetachButton integration={integration} />
      </div>
      <p>
        {l.by} ({l.role}) since {formatExact(l.since)} from <span className="font-mono">{l.from}</span>, forwarding to{" "}
        <span className="font-mono break-all">{l.forwardTo}</span>. The receiver URL is used again once it detaches.
      </p>
    </div>
  );
}

/** Gives the integration back to its receiver URL: a listener that never came back holds it otherwise. */
function DetachButton({ integration }: { integration: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detach = useMutation(
    trpc.integrations.detachListener.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }),
  );
  if (!useMayCall("integrations.detachListener")) return null;
  return (
    <Button
      {...calls("integrations.detachListener")}
      size="sm"
      variant="secondary"
      disabled={detach.isPending}
      onClick={() => detach.mutate({ key: integration })}
      aria-label={`Detach the listener from ${integration}`}
    >
      Detach
    </Button>
  );
}
