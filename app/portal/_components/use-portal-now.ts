"use client";
import { useQuery } from "@tanstack/react-query";
import { useWorkbenchNow } from "@/app/_components/ui/use-workbench-now";
import { useTRPC } from "@/app/_trpc/react";

/**
 * The workbench clock's now for portal pages (null until known), through the portal's own
 * procedure: a dispatcher holds no dashboard role in shared mode. The offset moves only when
 * someone jumps the clock, so it is asked every few seconds while the now ticks locally.
 */
export function usePortalNow(): { nowMs: number | null; offsetMs: number | undefined } {
  const trpc = useTRPC();
  const clock = useQuery({ ...trpc.portal.clock.queryOptions(), refetchInterval: 3_000, retry: false });
  const offsetMs = clock.data?.offsetMs;
  return { nowMs: useWorkbenchNow(offsetMs), offsetMs };
}
