import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import superjson from "superjson";

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // A refusal of the caller is an answer, not a failure to retry: the page says so at once
      // (the session banner), instead of loading for three backed-off retries.
      queries: { staleTime: 5_000, retry: retryUnlessRefused },
      dehydrate: {
        serializeData: superjson.serialize,
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}

const REFUSALS = new Set(["UNAUTHORIZED", "FORBIDDEN"]);

function retryUnlessRefused(failures: number, error: unknown): boolean {
  if (error instanceof TRPCClientError && REFUSALS.has((error.data as { code?: string } | undefined)?.code ?? ""))
    return false;
  return failures < 3;
}
