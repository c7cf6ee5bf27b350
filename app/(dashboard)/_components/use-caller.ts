"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";

/** Who is using the dashboard (local mode: the developer at the machine, as admin) and how the workbench is exposed. */
export function useCaller() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.access.me.queryOptions(), staleTime: 60_000 });
}
