import type { ReactNode } from "react";
import { HydrateClient, prefetch, trpc } from "@/app/_trpc/server";
import { PROCEDURE_ROLES } from "@/server/api/procedure-roles";
import { CallerBadge } from "./_components/caller-badge";
import { ProcedureRolesProvider } from "./_components/may-call";
import { ClockBadge } from "./_components/clock-badge";
import { DatabaseBanner } from "./_components/database-banner";
import { SessionBanner } from "./_components/session-banner";
import { Nav } from "./_components/nav";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // Who is calling, before the first paint: controls the caller's role may not use are never drawn (may-call.tsx).
  await prefetch(trpc.access.me.queryOptions());
  return (
    <ProcedureRolesProvider roles={PROCEDURE_ROLES}>
      <HydrateClient>
        <DashboardShell>{children}</DashboardShell>
      </HydrateClient>
    </ProcedureRolesProvider>
  );
}

function DashboardShell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* Sticky sidebar: the areas stay in reach while a long inspector page scrolls. */}
      <aside className="sticky top-0 flex h-screen w-52 shrink-0 flex-col bg-slate-900 xl:w-56">
        <div className="flex items-center gap-2.5 px-5 py-4 text-white">
          <span aria-hidden className="grid h-8 w-8 place-items-center rounded-md bg-orange-700 text-sm font-bold">
            IP
          </span>
          <div>
            <div className="text-[10px] font-semibold uppercase tracking-wider text-orange-300">Incident Platform</div>
            <div className="text-base font-semibold leading-tight">Workbench</div>
          </div>
        </div>
        <Nav />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        {/* The banner sticks with the header: an outage stays in view while a long page scrolls. */}
        <div className="sticky top-0 z-30">
          <DatabaseBanner />
          <SessionBanner />
          <header className="flex h-12 items-center justify-end gap-3 border-b border-slate-200 bg-white/90 px-6 backdrop-blur">
            <ClockBadge />
            <CallerBadge />
          </header>
        </div>
        <main id="main" className="mx-auto w-full max-w-[1600px] flex-1 p-6 lg:p-8">
          {children}
        </main>
      </div>
    </div>
  );
}
