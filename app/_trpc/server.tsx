import "server-only";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy, type TRPCQueryOptions } from "@trpc/tanstack-react-query";
import { headers } from "next/headers";
import { cache, type ReactNode } from "react";
import { appRouter } from "@/server/api/root";
import { createTRPCContext } from "@/server/api/trpc";
import { getRuntime } from "@/server/runtime";
import { makeQueryClient } from "./query-client";

/** One QueryClient per server request. */
export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: async () => createTRPCContext({ headers: await headers() }),
  router: appRouter,
  queryClient: getQueryClient,
});

/**
 * Runs a query on the server (local mode); the client picks the result up through HydrateClient. Await it
 * before rendering when the page's client components read the query with `useQuery`: a query
 * still pending at HydrateClient is sent as a promise, which the server's render may see
 * resolved (HTML with the data) while the browser's first render, at hydration, does not yet
 * (the loading state): React's hydration error #418 on every load.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any procedure's options: TRPCQueryOptions is generic over the procedure
export function prefetch<T extends ReturnType<TRPCQueryOptions<any>>>(queryOptions: T): Promise<void> {
  // A shared workbench renders no data into a page: a navigation carries only the session cookie,
  // which another port of the host can read and replay. The page's queries run in the browser,
  // with the session's key (docs/decisions/0071).
  if (getRuntime().env.ACCESS_MODE === "shared") return Promise.resolve();
  return getQueryClient().prefetchQuery(queryOptions);
}

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
