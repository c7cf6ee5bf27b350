// Every procedure of the dashboard's API names who may call it: a dashboard role
// enforced by the role middleware, or the portal session (portal router only). A
// procedure added without one fails here, before it can ship open on a shared workbench.
import { describe, expect, it } from "vitest";
import { appRouter } from "./root.ts";
import { requireRole, type ProcedureMeta } from "./trpc.ts";
import { ROLES } from "../workbench/access/roles.ts";

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
      "retention.status",
      "retention.pruneNow",
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
