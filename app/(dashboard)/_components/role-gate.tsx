"use client";
import type { ReactNode } from "react";
import { calls, useMayCall, useNeededRole, type ProcedurePath } from "./may-call";
import { useCaller } from "./use-caller";

/**
 * Shows its children only to callers who may call `call` (the server's role table: may-call.tsx);
 * others read what it needs instead of controls that would be refused (`quiet`: nothing, where the
 * page says it already). Only a convenience: every procedure checks the role on the server.
 */
export function RoleGate({
  call,
  what,
  quiet,
  children,
}: {
  call: ProcedurePath;
  what?: string;
  quiet?: boolean;
  children: ReactNode;
}) {
  const allowed = useMayCall(call);
  const needed = useNeededRole(call);
  const { data } = useCaller();
  if (allowed)
    return (
      <div {...calls(call)} className="contents">
        {children}
      </div>
    );
  if (quiet || !data) return null;
  return (
    <p
      className="rounded-lg border border-dashed border-slate-300 bg-white px-4 py-3 text-sm text-slate-600"
      data-testid="role-gate"
    >
      {what} needs the {needed} role; you are signed in as {data.caller.name} with the {data.caller.role} role.
    </p>
  );
}
