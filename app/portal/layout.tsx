import Link from "next/link";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { getPortalSession } from "@/server/identity/portal-sessions";
import { PortalClock } from "./_components/portal-clock";

export const metadata = { title: { default: "Portal", template: "%s · Portal" } };

/**
 * The dispatcher portal: its own chrome, gated by the portal (identity) session rather than the
 * dashboard. Signed in, the header names who is at the console and shows the workbench clock every
 * age on the page is measured against.
 */
export default async function PortalLayout({ children }: { children: ReactNode }) {
  const session = await getPortalSession(await headers());
  const link =
    "rounded px-2 py-1 text-sm text-slate-200 hover:bg-slate-800 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500";
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only rounded bg-white px-3 py-2 text-sm font-medium text-slate-900 focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
      >
        Skip to content
      </a>
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2 bg-slate-900 px-6 py-3 text-white">
        <span>
          <span className="text-xs font-semibold uppercase tracking-wider text-orange-400">Incident Platform</span>{" "}
          <span className="font-semibold">Portal</span>
        </span>
        <nav aria-label="Portal" className="flex gap-1">
          <Link href="/portal/incidents" className={link}>
            Incidents
          </Link>
          <Link href="/portal" className={link}>
            Account
          </Link>
        </nav>
        {session && (
          <div className="ml-auto flex flex-wrap items-center gap-x-4 gap-y-1">
            <PortalClock />
            <p className="text-sm text-slate-300" data-testid="portal-header-user">
              {session.name} · {session.agencyName}
            </p>
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-screen-2xl p-6 focus:outline-none">
        {children}
      </main>
    </div>
  );
}
