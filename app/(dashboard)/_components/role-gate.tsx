"use client";
import type { ReactNode } from "react";
import { useCaller, useMayDo, type DashboardRole } from "./use-caller";

/**
 * Shows its children only to callers whose role includes `role`; others read what it needs
 * instead of buttons that would be refused (`quiet`: nothing, where a note above says it already).
 * Only a convenience: every procedure checks the role on the server.
 */
export function RoleGate({
  role,
  what,
  quiet,
  children,
}: {
  role: DashboardRole;
  what?: string;
  quiet?: boolean;
  children: ReactNode;
}) {
  const allowed = useMayDo(role);
  const { data } = useCaller();
  // While the caller is unknown the children render: in local mode (everyone is admin) that costs no
  // extra round trip before their own queries start; a lesser role sees them go once its role is known.
  if (allowed === undefined || allowed) return <>{children}</>;
  if (quiet) return null;
  return (
    <p
      className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-3 text-sm text-slate-600"
      data-testid="role-gate"
    >
      {what} needs the {role} role; you are signed in as {data?.caller.name} with the {data?.caller.role} role.
    </p>
  );
}
