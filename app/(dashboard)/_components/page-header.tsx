import type { ReactNode } from "react";

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="mb-6">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {children && <p className="mt-1 max-w-3xl text-sm text-slate-600">{children}</p>}
    </header>
  );
}

/** An area whose capability has not been built yet: says so plainly. */
export function NotBuiltYet({ issue, what }: { issue: number; what: string }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
      <p className="font-medium text-slate-800">Not built yet.</p>
      <p className="mt-1">{what} arrives with issue #{issue}.</p>
    </div>
  );
}
