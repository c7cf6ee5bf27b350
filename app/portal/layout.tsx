import type { ReactNode } from "react";

export const metadata = { title: { default: "Portal", template: "%s · Portal" } };

/** The dispatcher portal: its own chrome, gated by the portal (identity) session rather than the dashboard. */
export default function PortalLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="bg-slate-900 px-6 py-3 text-white">
        <span className="text-xs font-semibold uppercase tracking-wider text-orange-400">Incident Platform</span>{" "}
        <span className="font-semibold">Portal</span>
      </header>
      <main id="main" className="mx-auto max-w-3xl p-6">{children}</main>
    </div>
  );
}
