// Who may do what on a shared workbench. Each role includes the ones below it:
// admin ⊃ integrator ⊃ viewer. Local mode has no roles: its one caller acts as admin.
import { z } from "zod";

export const ROLES = ["viewer", "integrator", "admin"] as const;
export const ZRole = z.enum(ROLES);
export type Role = z.infer<typeof ZRole>;

const RANK: Record<Role, number> = { viewer: 0, integrator: 1, admin: 2 };

export function roleAllows(held: Role, needed: Role): boolean {
  return RANK[held] >= RANK[needed];
}

/** Who is calling the dashboard's API. */
export type Caller =
  | { kind: "local"; role: "admin"; name: "local" }
  | { kind: "member"; role: Role; name: string; memberId: string }
  | { kind: "api-token"; role: Role; name: string; tokenId: string };

/** Who may call which dashboard procedure: the role each names (read from the router: server/api/procedure-roles.ts). */
export type ProcedureRoles = Readonly<Record<string, Role>>;

/**
 * May a caller holding `held` call `procedure`? The same answer the server's role check gives; the
 * dashboard asks it to hide what would be refused. A procedure the table does not name: no.
 */
export function mayCall(held: Role, procedure: string, table: ProcedureRoles): boolean {
  const needed = Object.hasOwn(table, procedure) ? table[procedure] : undefined;
  return needed !== undefined && roleAllows(held, needed);
}
