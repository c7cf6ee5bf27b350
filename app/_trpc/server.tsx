import "server-only";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy, type TRPCQueryOptions } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { cache, type ReactNode } from "react";
import { appRouter } from "@/server/api/root";
import { createTRPCContext } from "@/server/api/trpc";
import { makeQueryClient } from "./query-client";

/** One QueryClient per server request. */
export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: async () => createTRPCContext({ headers: await headers() }),
  router: appRouter,
  queryClient: getQueryClient,
});

/** Starts a query on the server; the client picks the result up through HydrateClient. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any procedure's options: TRPCQueryOptions is generic over the procedure
export function prefetch<T extends ReturnType<TRPCQueryOptions<any>>>(queryOptions: T) {
  void getQueryClient().prefetchQuery(queryOptions);
}

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
