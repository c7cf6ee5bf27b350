"use client";
// One delivery in full (describe-delivery.ts), polled every second until it is delivered or expired.
import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTRPC } from "@/app/_trpc/react";
import type { AppRouter } from "@/server/api/root";

export type DeliveryInFull = inferRouterOutputs<AppRouter>["deliveries"]["get"];
export type DeliveryAttempt = DeliveryInFull["attempts"][number];

export const isNotFound = (e: unknown) => (e as { data?: { code?: string } } | null)?.data?.code === "NOT_FOUND";

export function useDelivery(requestId: string) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.deliveries.get.queryOptions({ requestId }),
    // An unknown id is an answer, not a hiccup: no retries, no polling.
    retry: (n, e) => !isNotFound(e) && n < 2,
    refetchInterval: (s) =>
      s.state.error || (s.state.data && ["delivered", "expired", "superseded"].includes(s.state.data.state))
        ? false
        : 1_000,
  });
}
