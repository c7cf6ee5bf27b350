// The capability declaration a receiver answers on GET /about
// (platform-interface.md, "Webhook capability declaration"). `supports` is
// required; every nested group and flag is optional and a missing one means
// unsupported. A flag or group sent as `null` reads as missing (unsupported), so one null does
// not reject the rest of the declaration; any other non-boolean flag value is rejected with its
// path. Unknown members are ignored (a newer 3.x receiver may add some). The groups and flags are
// those of the one flag list (capability-flags.ts).
import { z } from "zod";
import {
  flagPathOf,
  flagTreeShape,
  V3_FLAG_PATHS,
  V3_FLAGS,
  type FlagHead,
  type FlagsBelow,
  type V3Flag,
  type V3FlagPath,
} from "./capability-flags.ts";

/** The zod shape of the flags below one group: a flag is a nullish boolean, a group a nullish loose object. */
type SupportsShape<P extends string> = {
  [H in FlagHead<P>]: [FlagsBelow<P, H>] extends [never]
    ? z.ZodOptional<z.ZodNullable<z.ZodBoolean>>
    : z.ZodOptional<z.ZodNullable<z.ZodObject<SupportsShape<FlagsBelow<P, H>>, z.core.$loose>>>;
};

const incidentShape = flagTreeShape<z.ZodType>(
  V3_FLAG_PATHS,
  () => z.boolean().nullish(),
  (shape) => z.looseObject(shape).nullish(),
) as SupportsShape<V3FlagPath>;

export const ZSupportsV3 = z.looseObject({ incident: z.looseObject(incidentShape).nullish() });

export const ZAboutDeclaration = z.looseObject({
  version: z.string().min(1).describe("implemented contract version; for v3 a 3.x value"),
  supports: ZSupportsV3,
  allowsMonitoring: z.boolean().nullish().describe("advisory only: recorded, never acted on"),
});
export type TAboutDeclaration = z.infer<typeof ZAboutDeclaration>;

/** The declared (true) flags of a declaration. */
export function flattenSupports(supports: z.infer<typeof ZSupportsV3>): V3Flag[] {
  const incident = (supports.incident ?? {}) as Record<string, unknown>;
  return V3_FLAGS.filter((name) => {
    let node: unknown = incident;
    for (const key of flagPathOf(name).split("."))
      node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
    return node === true;
  });
}

/** Major version from `version` ("3", "3.1", "3.1.4" → 3); undefined when unreadable. */
export function majorVersionOf(version: string): number | undefined {
  const m = /^v?(\d+)(?:\.|$)/.exec(version.trim());
  return m ? Number(m[1]) : undefined;
}
