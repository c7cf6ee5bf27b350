"use client";
// The chat column of the incident page: live video when there is some, then the conversation,
// beside the map. The focused /chat and /live-video pages show the same parts larger.
import Link from "next/link";
import type { TCaller } from "@/server/incidents/snapshot.schema";
import { Badge } from "@/app/_components/ui/badge";
import { RelativeTime } from "@/app/_components/ui/relative-time";
import { ChatConversation } from "./chat-conversation";
import { SimulatedStream } from "./simulated-stream";

export function CallerContact({
  incidentId,
  caller,
  closed,
  nowMs,
}: {
  incidentId: string;
  caller: TCaller;
  closed: boolean;
  nowMs: number | null;
}) {
  const base = `/portal/incidents/${incidentId}`;
  const video = caller.liveVideo;
  const link = "text-xs font-medium text-slate-700 underline underline-offset-2 hover:text-slate-900";
  return (
    <section
      aria-labelledby="caller-contact-h"
      className="flex min-w-0 flex-col rounded-lg border border-slate-200 bg-white shadow-xs"
      data-testid="caller-contact"
    >
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2.5">
        <h2 id="caller-contact-h" className="text-sm font-semibold">
          Caller chat
        </h2>
        {caller.chat ? <Badge tone="success">Active</Badge> : <Badge>Not active</Badge>}
        <Link href={`${base}/chat`} className={`ml-auto ${link}`}>
          Larger view
        </Link>
      </header>
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2 text-sm">
        <span className="font-medium">Live video</span>
        {video ? (
          <>
            <Badge tone={video.state === "Active" ? "success" : "neutral"}>{video.state}</Badge>
            <span className="text-xs text-slate-600">
              {video.state === "Active" ? "since " : ""}
              <RelativeTime iso={video.endedAtUtc ?? video.activatedAtUtc} nowMs={nowMs} />
            </span>
            <Link href={`${base}/live-video`} className={`ml-auto ${link}`}>
              {video.state === "Active" ? "Watch larger" : "Details"}
            </Link>
          </>
        ) : (
          <span className="text-xs text-slate-600">not started</span>
        )}
      </div>
      {video?.state === "Active" && (
        <div className="border-b border-slate-200 p-3">
          <SimulatedStream video={video} />
        </div>
      )}
      <ChatConversation
        incidentId={incidentId}
        active={Boolean(caller.chat) && !closed}
        nowMs={nowMs}
        className="flex-1"
        listClassName="max-h-80"
      />
    </section>
  );
}
