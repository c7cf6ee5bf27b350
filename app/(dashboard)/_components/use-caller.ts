"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";

export type DashboardRole = "viewer" | "integrator" | "admin";
const RANK: Record<DashboardRole, number> = { viewer: 0, integrator: 1, admin: 2 };

/** Who is using the dashboard (local mode: the developer at the machine, as admin) and how the workbench is exposed. */
export function useCaller() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.access.me.queryOptions(), staleTime: 60_000 });
}

/** True when the caller's role includes `role`; undefined while unknown. The server enforces it anyway: this only hides what would be refused. */
export function useMayDo(role: DashboardRole): boolean | undefined {
  const { data } = useCaller();
  return data ? RANK[data.caller.role] >= RANK[role] : undefined;
}
