"use client";
// "May I?" on the dashboard, from the table the server enforces: the role each procedure names
// (server/api/procedure-roles.ts, handed down by the dashboard's layout) and the caller's role
// (access.me, prefetched by the layout, so a viewer's first paint already lacks the buttons).
// Only a convenience: every procedure checks the role on the server (SECURITY.md, roles on screen).
import { createContext, useContext, type ReactNode } from "react";
import { mayCall, type ProcedureRoles, type Role } from "@/server/workbench/access/roles";
import type { AppRouter } from "@/server/api/root";
import { useCaller } from "./use-caller";

const ProcedureRolesContext = createContext<ProcedureRoles>({});

export function ProcedureRolesProvider({ roles, children }: { roles: ProcedureRoles; children: ReactNode }) {
  return <ProcedureRolesContext.Provider value={roles}>{children}</ProcedureRolesContext.Provider>;
}

type Procedure = { _def: { type: "query" | "mutation" | "subscription" } };
type PathsOf<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends Procedure ? `${Prefix}${K}` : PathsOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** A dashboard procedure's path ("deliveries.resend"): the compiler refuses one the router lacks. */
export type ProcedurePath = Exclude<PathsOf<AppRouter["_def"]["record"]>, `portal.${string}`>;

/** The least role `ref` needs, as the server's table says (undefined: not a dashboard procedure). */
export function useNeededRole(path: ProcedurePath): Role | undefined {
  return useContext(ProcedureRolesContext)[path];
}

/**
 * Marks a control (or a group of them) drawn only for callers who may call `path`: the roles walk
 * (e2e/roles-on-screen.spec.ts) reads these, and holds each role's screen to the server's table.
 */
export const calls = (path: ProcedurePath) => ({ "data-procedure": path });

/** May the caller call `path`? False while the caller is unknown: nothing is shown that might be refused. */
export function useMayCall(path: ProcedurePath): boolean {
  const roles = useContext(ProcedureRolesContext);
  const { data } = useCaller();
  return data ? mayCall(data.caller.role, path, roles) : false;
}
