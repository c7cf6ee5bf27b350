"use client";
// The focused views of chat and live video (the portalUrls the inbound API returns), live
// (polled every second): the channel's state as the incident now stands, larger than in the
// incident page's chat column; the simulator plays the caller.
import Link from "next/link";
import type { ReactNode } from "react";
import { incidentTitle, reportedProblemsOf } from "@/app/_components/incident/describe-incident";
import { PurposeBadge } from "@/app/_components/ui/purpose-badge";
import { RelativeTime } from "@/app/_components/ui/relative-time";
import { usePortalNow } from "../../../_components/use-portal-now";
import { ChatConversation } from "./chat-conversation";
import { useLiveIncident } from "./use-live-incident";
import { SimulatedStream } from "./simulated-stream";

export function CallerChannel({ incidentId, channel }: { incidentId: string; channel: "chat" | "liveVideo" }) {
  const { data, gate, stale } = useLiveIncident(incidentId);
  const { nowMs } = usePortalNow();
  const title = channel === "chat" ? "Caller chat" : "Live video";
  if (!data) return gate;
  const { snapshot, closedAtUtc } = data;
  const state = channel === "chat" ? snapshot.caller.chat : snapshot.caller.liveVideo;
  const at = (iso: string | null) => (iso ? <RelativeTime iso={iso} nowMs={nowMs} /> : null);
  const row = (label: string, value: ReactNode) => (
    <>
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words">{value}</dd>
    </>
  );
  const name = incidentTitle({
    label: snapshot.label,
    problems: reportedProblemsOf(snapshot.caller.reportedProblems),
    callerName: snapshot.caller.fullName,
    callerPhone: snapshot.caller.phoneNumber,
  });
  return (
    <div className="mx-auto max-w-3xl">
      {stale}
      <Link
        href={`/portal/incidents/${incidentId}`}
        className="text-sm text-slate-700 underline-offset-2 hover:underline"
      >
        ← {name}
      </Link>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">{title}</h1>
        <PurposeBadge purpose={snapshot.purpose} />
      </div>
      <dl className="mt-4 grid grid-cols-[8rem_minmax(0,1fr)] gap-y-2 text-sm">
        {row(
          "Caller",
          `${snapshot.caller.fullName ?? "Name not known"} · ${snapshot.caller.phoneNumber ?? "no number"}`,
        )}
        <dt className="text-slate-600">State</dt>
        <dd data-testid="channel-state" className="font-medium">
          {state ? state.state : "Not activated"}
        </dd>
        {state && row("Activated", at(state.activatedAtUtc))}
        {state && "endedAtUtc" in state && state.endedAtUtc && row("Ended", at(state.endedAtUtc))}
        {closedAtUtc && row("Incident closed", at(closedAtUtc))}
      </dl>
      <div className="mt-6">
        {channel === "chat" ? (
          <section aria-label="Conversation" className="rounded-lg border border-slate-200 bg-white">
            <ChatConversation
              incidentId={incidentId}
              active={Boolean(state) && !closedAtUtc}
              nowMs={nowMs}
              listClassName="max-h-[28rem] min-h-40"
            />
          </section>
        ) : (
          <SimulatedStream video={snapshot.caller.liveVideo} />
        )}
      </div>
    </div>
  );
}
