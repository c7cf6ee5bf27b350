// Every procedure of the dashboard's API names who may call it: a dashboard role
// enforced by the role middleware, or the portal session (portal router only). A
// procedure added without one fails here, before it can ship open on a shared workbench.
import { describe, expect, it } from "vitest";
import { appRouter } from "./root.ts";
import { requireRole, type ProcedureMeta } from "./trpc.ts";
import { mayCall, ROLES } from "../workbench/access/roles.ts";
import { PROCEDURE_ROLES } from "./procedure-roles.ts";

type ProcedureDef = { meta?: ProcedureMeta; middlewares: unknown[]; type: string };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>).map(
  ([path, p]) => ({ path, def: p._def }),
);
const roleCheck = (requireRole as unknown as { _middlewares: unknown[] })._middlewares[0];

describe("roles of the dashboard's procedures", () => {
  it("finds the procedures", () => {
    expect(procedures.length).toBeGreaterThan(50);
  });

  it.each(procedures.map((p) => [p.path, p.def] as const))("%s names a role and enforces it", (path, def) => {
    if (path.startsWith("portal.")) {
      expect(def.meta).toEqual({ access: "portal" });
      return;
    }
    expect(ROLES).toContain(def.meta?.role);
    expect(def.middlewares).toContain(roleCheck);
  });

  it("gives configuration and secrets to admins, test drivers to integrators, reads to viewers", () => {
    const roleOf = (path: string) => procedures.find((p) => p.path === path)?.def.meta?.role;
    for (const path of [
      "system.resetSeed",
      "clock.advance",
      "clock.reset",
      "identity.clients.create",
      "identity.clients.rotateSecret",
      "identity.keys.rotate",
      "integrations.set",
      "access.members.create",
      "access.apiTokens.create",
      "access.clearGuessThrottle",
    ])
      expect(roleOf(path), path).toBe("admin");
    for (const path of [
      "simulator.raise",
      "simulator.act",
      "simulator.runScenario",
      "receivers.setFault",
      "receivers.setNetworkFault",
      "receivers.setCapabilities",
      "conformance.start",
      "deliveries.resend",
    ])
      expect(roleOf(path), path).toBe("integrator");
    // Every query a viewer reaches is read-only; no mutation is a viewer's.
    for (const p of procedures) if (p.def.meta?.role === "viewer") expect(p.def.type, p.path).toBe("query");
  });
});

describe("the table the dashboard hides controls by (PROCEDURE_ROLES, mayCall)", () => {
  it("holds every dashboard procedure with the role its middleware enforces, and no portal procedure", () => {
    for (const p of procedures)
      expect(PROCEDURE_ROLES[p.path], p.path).toBe(p.path.startsWith("portal.") ? undefined : p.def.meta?.role);
    expect(Object.keys(PROCEDURE_ROLES).length).toBe(procedures.filter((p) => !p.path.startsWith("portal.")).length);
  });

  it.each([
    ["viewer", "deliveries.list", true],
    ["viewer", "deliveries.resend", false],
    ["viewer", "receivers.setFault", false],
    ["viewer", "conformance.start", false],
    ["viewer", "clock.advance", false],
    ["integrator", "deliveries.resend", true],
    ["integrator", "receivers.setCapabilities", true],
    ["integrator", "identity.clients.rotateSecret", false],
    ["integrator", "access.members.list", false],
    ["admin", "access.members.create", true],
    ["admin", "system.resetSeed", true],
    ["admin", "portal.incident", false],
    ["admin", "no.such.procedure", false],
    ["admin", "__proto__", false],
    ["admin", "toString", false],
  ] as const)("a %s may call %s: %s", (role, path, expected) => {
    expect(mayCall(role, path, PROCEDURE_ROLES)).toBe(expected);
  });
});
