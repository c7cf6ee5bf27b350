// The capability declaration (GET /about) of platform-interface.md, "Webhook
// capability declaration": version, supports (required; every nested group and
// flag optional, a missing one means unsupported), allowsMonitoring (optional).
// The groups and flags are the contract's one flag list (webhook-contracts/v3/capability-flags.ts); unlike
// discovery's parser, which reads a null flag as missing, the kit holds a receiver to the spec's
// booleans: a null flag fails the declaration check.
import { z } from "zod";
import {
  flagTreeShape,
  V3_FLAG_PATHS,
  type FlagHead,
  type FlagsBelow,
  type V3FlagPath,
} from "../webhook-contracts/v3/capability-flags.ts";

/** The zod shape of the flags below one group: a flag is an optional boolean, a group an optional object. */
type SupportsShape<P extends string> = {
  [H in FlagHead<P>]: [FlagsBelow<P, H>] extends [never]
    ? z.ZodOptional<z.ZodBoolean>
    : z.ZodOptional<z.ZodObject<SupportsShape<FlagsBelow<P, H>>>>;
};

const incidentShape = flagTreeShape<z.ZodType>(
  V3_FLAG_PATHS,
  () => z.boolean().optional(),
  (shape) => z.object(shape).optional(),
) as SupportsShape<V3FlagPath>;

export const ZSupportsV3 = z.object({ incident: z.object(incidentShape).optional() });

export const ZAbout = z.object({
  version: z.string().min(1),
  supports: ZSupportsV3,
  allowsMonitoring: z.boolean().optional(),
});
export type TAbout = z.infer<typeof ZAbout>;

/** Reads a flag by its wire path under `incident`, e.g. "caller.trackReplaced". Missing = unsupported. */
export function declares(about: TAbout | undefined, flagPath: V3FlagPath): boolean {
  let node: unknown = about?.supports.incident;
  for (const part of flagPath.split("."))
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
  return node === true;
}

export const isV3Version = (version: string) => /^3(\.\d+)*$/.test(version.trim());

/**
 * 1.x or 2.x: the frozen legacy contracts (Versioning rule 3: the service picks the contract from
 * `version` alone). v1 is v2 under the base route /v1 (webhook-contracts/v2/routes.ts), so both get the v2 checks.
 */
export function legacyMajorOf(version: string): 1 | 2 | undefined {
  const m = /^([12])(\.\d+)*$/.exec(version.trim());
  return m ? (Number(m[1]) as 1 | 2) : undefined;
}
