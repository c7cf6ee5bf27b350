"use client";
import "./zod-jitless";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";
import { makeQueryClient } from "./query-client";
import { SESSION_KEY_HEADER, SESSION_KEY_STORAGE } from "@/server/workbench/access/session-key-names";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/**
 * On a shared workbench every call carries the session's key, which the sign-in left in this
 * origin's storage (docs/decisions/0071): the cookie alone, which another port of the host can read
 * and set, does not authorise. Read per call, so a sign-in in another tab is picked up.
 */
function sessionKeyHeaders(): Record<string, string> {
  try {
    const key = localStorage.getItem(SESSION_KEY_STORAGE);
    return key ? { [SESSION_KEY_HEADER]: key } : {};
  } catch {
    return {};
  }
}

let browserQueryClient: QueryClient | undefined;
function getQueryClient() {
  if (typeof window === "undefined") return makeQueryClient();
  return (browserQueryClient ??= makeQueryClient());
}

export function TRPCReactProvider({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  const [trpcClient] = useState(() =>
    // Within the server's bounds (server/api/bound-trpc-request.ts): 16 calls per batch, URLs under 8 KiB.
    createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: "/api/trpc",
          transformer: superjson,
          maxItems: 16,
          maxURLLength: 6_000,
          headers: sessionKeyHeaders,
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
