// The one table of who may call what, read from the procedures' own meta (trpc.ts): the role middleware
// enforces it on the server, and the dashboard hides what it would refuse from the same table
// (app/(dashboard)/_components/may-call.tsx). The portal's procedures are gated by its session instead.
import { appRouter } from "./root.ts";
import type { ProcedureMeta } from "./trpc.ts";
import type { ProcedureRoles } from "../workbench/access/roles.ts";

type ProcedureDefs = Record<string, { _def: { meta?: ProcedureMeta } }>;

export function readProcedureRoles(router: { _def: { procedures: unknown } } = appRouter): ProcedureRoles {
  const table: Record<string, ProcedureMeta["role"] & string> = {};
  for (const [path, procedure] of Object.entries(router._def.procedures as ProcedureDefs)) {
    const role = procedure._def.meta?.role;
    if (role) table[path] = role;
  }
  return Object.freeze(table);
}

/** Every dashboard procedure's least role, by its path ("deliveries.resend"). */
export const PROCEDURE_ROLES: ProcedureRoles = readProcedureRoles();
