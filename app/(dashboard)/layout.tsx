import type { ReactNode } from "react";
import { ClockBadge } from "./_components/clock-badge";
import { Nav } from "./_components/nav";

export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <aside className="w-56 shrink-0 bg-slate-900">
        <div className="px-5 py-4 text-white">
          <div className="text-xs font-semibold uppercase tracking-wider text-orange-400">Incident Platform</div>
          <div className="text-lg font-semibold">Workbench</div>
        </div>
        <Nav />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex h-12 items-center justify-end border-b border-slate-200 bg-white px-6">
          <ClockBadge />
        </div>
        <main id="main" className="flex-1 p-6 lg:p-8">{children}</main>
      </div>
    </div>
  );
}
