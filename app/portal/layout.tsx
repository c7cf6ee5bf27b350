import Link from "next/link";
import type { ReactNode } from "react";

export const metadata = { title: { default: "Portal", template: "%s · Portal" } };

/** The dispatcher portal: its own chrome, gated by the portal (identity) session rather than the dashboard. */
export default function PortalLayout({ children }: { children: ReactNode }) {
  const link =
    "rounded px-2 py-1 text-sm text-slate-200 hover:bg-slate-800 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500";
  return (
    <div className="min-h-screen">
      <header className="flex flex-wrap items-center gap-4 bg-slate-900 px-6 py-3 text-white">
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
      </header>
      <main id="main" className="mx-auto max-w-7xl p-6">
        {children}
      </main>
    </div>
  );
}
