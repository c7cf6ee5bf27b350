// The capability declaration a receiver returns on GET /about
// (platform-interface.md, "Webhook capability declaration (response of GET /about)").
// Pure helpers: the default, reading and setting one flag by its wire path (its dotted path under
// `supports.incident`: the contract's flag list, webhook-contracts/v3/capability-flags.ts).
import { z } from "zod";
import { V3_FLAG_PATHS, type V3FlagPath } from "../webhook-contracts/v3/capability-flags.ts";

/** `supports` is a tree of optional groups and boolean flags; a missing one means unsupported. */
export type SupportsTree = { [key: string]: boolean | SupportsTree };

export const ZCapabilityDeclaration = z.object({
  /** For v3 a 3.x value (spec: "implemented contract version"). */
  version: z.string().regex(/^\d+(\.\d+)*$/, "a version such as 3.0"),
  supports: z.record(z.string(), z.unknown()),
  /** Advisory only; the service records it and does not act on it. */
  allowsMonitoring: z.boolean().optional(),
});
export type CapabilityDeclaration = {
  version: string;
  supports: { incident?: SupportsTree };
  allowsMonitoring: boolean;
};

/**
 * The seeded receivers' default (documented in docs/receivers.md): every v3 flag true,
 * version "3.0", allowsMonitoring false (the spec's default).
 */
export function defaultDeclaration(): CapabilityDeclaration {
  let incident: SupportsTree = {};
  for (const flag of V3_FLAG_PATHS) incident = withFlag(incident, flag, true);
  return { version: "3.0", supports: { incident }, allowsMonitoring: false };
}

/** Accepts "incident.caller.changed" as well as "caller.changed". */
export function normalizeFlag(path: string): V3FlagPath | undefined {
  const bare = path.startsWith("incident.") ? path.slice("incident.".length) : path;
  return (V3_FLAG_PATHS as readonly string[]).includes(bare) ? (bare as V3FlagPath) : undefined;
}

/** True only when the flag is present and exactly true (spec: missing = unsupported). */
export function isFlagSet(declaration: CapabilityDeclaration, flag: V3FlagPath): boolean {
  let node: unknown = declaration.supports.incident;
  for (const part of flag.split(".")) {
    if (!node || typeof node !== "object") return false;
    node = (node as SupportsTree)[part];
  }
  return node === true;
}

/** A copy of `tree` with `flag` set; parent groups are created as needed. */
export function withFlag(tree: SupportsTree, flag: string, value: boolean): SupportsTree {
  const [head, ...rest] = flag.split(".");
  if (rest.length === 0) return { ...tree, [head!]: value };
  const child = tree[head!];
  return { ...tree, [head!]: withFlag(typeof child === "object" ? child : {}, rest.join("."), value) };
}

/** Every flag with its current value, in the spec's order (for the UI tree and the CLI). */
export function listFlags(declaration: CapabilityDeclaration): Array<{ flag: V3FlagPath; enabled: boolean }> {
  return V3_FLAG_PATHS.map((flag) => ({ flag, enabled: isFlagSet(declaration, flag) }));
}

/** Spec, Endpoints rule 1: a receiver must declare incident.created or incident.changed, else /about is rejected. */
export function declarationProblem(declaration: CapabilityDeclaration): string | null {
  if (/^[12]\./.test(declaration.version)) return null; // v1/v2 have no capability flags; every legacy route is sent
  if (!declaration.version.startsWith("3."))
    return `version ${declaration.version} is not a 3.x version: the service would not send v3 events`;
  if (!isFlagSet(declaration, "created") && !isFlagSet(declaration, "changed"))
    return "neither incident.created nor incident.changed: the service rejects this /about and the integration does not start";
  return null;
}
