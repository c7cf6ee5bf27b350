"use client";
// The portal side of chat and live video, live (polled every second): the
// channel's state as the incident now stands; the simulator plays the caller.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { formatUtc } from "@/app/_components/incident/labels";
import { Alert } from "@/app/_components/ui/alert";
import { PurposeBadge } from "@/app/_components/ui/purpose-badge";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { useTRPC } from "@/app/_trpc/react";
import { ChatConversation } from "./chat-conversation";
import { SimulatedStream } from "./simulated-stream";

export function CallerChannel({ incidentId, channel }: { incidentId: string; channel: "chat" | "liveVideo" }) {
  const trpc = useTRPC();
  const incident = useQuery({
    ...trpc.portal.incident.queryOptions({ incidentId }),
    refetchInterval: 1_000,
    retry: false,
  });
  const title = channel === "chat" ? "Caller chat" : "Live video";
  if (incident.error) return <Alert tone="danger">{incident.error.message}</Alert>;
  if (!incident.data) return <SkeletonRows rows={4} />;
  const { snapshot, closedAtUtc } = incident.data;
  const state = channel === "chat" ? snapshot.caller.chat : snapshot.caller.liveVideo;
  const row = (label: string, value: ReactNode) => (
    <>
      <dt className="text-slate-600">{label}</dt>
      <dd>{value}</dd>
    </>
  );
  return (
    <div className="mx-auto max-w-3xl">
      <Link
        href={`/portal/incidents/${incidentId}`}
        className="text-sm text-slate-700 underline-offset-2 hover:underline"
      >
        ← Incident {snapshot.label ?? snapshot.id}
      </Link>
      <div className="mt-2 flex items-center gap-3">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <PurposeBadge purpose={snapshot.purpose} />
      </div>
      <dl className="mt-4 grid grid-cols-[10rem_1fr] gap-y-2 text-sm">
        {row("Incident", <span className="font-mono">{snapshot.id}</span>)}
        {row("Caller", `${snapshot.caller.fullName ?? "unknown"} · ${snapshot.caller.phoneNumber ?? "no number"}`)}
        <dt className="text-slate-600">State</dt>
        <dd data-testid="channel-state" className="font-medium">
          {state ? state.state : "Not activated"}
        </dd>
        {state && row("Activated", formatUtc(state.activatedAtUtc))}
        {state && "endedAtUtc" in state && state.endedAtUtc && row("Ended", formatUtc(state.endedAtUtc))}
        {closedAtUtc && row("Incident closed", formatUtc(closedAtUtc))}
      </dl>
      <div className="mt-6">
        {channel === "chat" ? (
          <ChatConversation incidentId={incidentId} active={Boolean(state) && !closedAtUtc} />
        ) : (
          <SimulatedStream video={snapshot.caller.liveVideo} />
        )}
      </div>
    </div>
  );
}
