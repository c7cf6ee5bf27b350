"use client";
// A banner across every dashboard page when the workbench refuses the caller (shared mode): the
// session ended, or this page does not hold the key of the session its cookie names (docs/decisions/
// 0071: a cookie another port of the host set, or a tab that did not sign in). It says why in the
// server's words and offers the way back in, returning to this page.
import { TRPCClientError } from "@trpc/client";
import { KeyRound } from "lucide-react";
import { usePathname } from "next/navigation";
import { useCaller } from "./use-caller";

export function SessionBanner() {
  const { error } = useCaller();
  const pathname = usePathname();
  if (!(error instanceof TRPCClientError) || error.data?.code !== "UNAUTHORIZED") return null;
  const signInFor = (next: string) => `/auth/sign-in?next=${encodeURIComponent(next)}`;
  return (
    <div
      role="alert"
      data-testid="session-banner"
      className="flex items-start gap-3 border-b border-amber-300 bg-amber-50 px-6 py-3 text-sm text-amber-950"
    >
      <KeyRound aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" />
      <div className="flex flex-1 flex-wrap items-center justify-between gap-3">
        <div>
          <p className="font-semibold">You are not signed in on this page</p>
          <p className="text-amber-900">{error.message}</p>
        </div>
        <a
          href={signInFor(pathname)}
          // Back to this very page, its query included (a selected delivery, a filter).
          onClick={(e) => {
            e.preventDefault();
            window.location.assign(signInFor(`${window.location.pathname}${window.location.search}`));
          }}
          className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
        >
          Sign in again
        </a>
      </div>
    </div>
  );
}
