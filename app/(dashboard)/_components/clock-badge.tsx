"use client";
import { useQuery } from "@tanstack/react-query";
import { Clock } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useTRPC } from "@/app/_trpc/react";
import { formatDuration } from "./format";

/**
 * Workbench time, always visible. The server's offset is polled; between polls
 * the badge ticks locally from that offset so it reads like a clock.
 */
export function ClockBadge() {
  const trpc = useTRPC();
  const { data } = useQuery({ ...trpc.clock.show.queryOptions(), refetchInterval: 2_000 });
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 1_000);
    return () => clearInterval(t);
  }, []);
  if (!data) return <span className="text-sm text-slate-500">clock…</span>;
  const now = new Date(Date.now() + data.offsetMs);
  return (
    <Link
      href="/clock"
      className="flex items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
      data-testid="clock-badge"
    >
      <Clock aria-hidden className="h-4 w-4 text-slate-500" />
      {/* A page that prefetched the clock renders this on the server a moment before the browser
          hydrates it: the seconds may differ, and that is expected of a clock (React's timestamp case). */}
      <span className="font-mono tabular-nums" data-testid="workbench-time" suppressHydrationWarning>
        {`${now.toISOString().replace("T", " ").slice(0, 19)} UTC`}
      </span>
      {data.offsetMs !== 0 && (
        <span
          className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-inset ring-amber-300"
          data-testid="clock-offset"
        >
          +{formatDuration(data.offsetMs)}
        </span>
      )}
    </Link>
  );
}
