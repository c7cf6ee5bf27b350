"use client";
import { useQuery } from "@tanstack/react-query";
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
    <Link href="/clock" className="flex items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-slate-100" data-testid="clock-badge">
      <span className="font-mono tabular-nums" data-testid="workbench-time">{now.toISOString().replace("T", " ").slice(0, 19)} UTC</span>
      {data.offsetMs !== 0 && (
        <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900" data-testid="clock-offset">
          +{formatDuration(data.offsetMs)}
        </span>
      )}
    </Link>
  );
}
