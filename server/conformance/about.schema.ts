// The capability declaration (GET /about) of platform-interface.md, "Webhook
// capability declaration": version, supports (required; every nested group and
// flag optional, a missing one means unsupported), allowsMonitoring (optional).
import { z } from "zod";

const flag = z.boolean().optional();

export const ZSupportsV3 = z.object({
  incident: z
    .object({
      created: flag,
      closed: flag,
      changed: flag,
      caller: z
        .object({
          changed: flag,
          newLocation: flag,
          trackReplaced: flag,
          fullNameChanged: flag,
          phoneNumberChanged: flag,
          deviceInfoChanged: flag,
          chat: z.object({ activated: flag }).optional(),
          liveVideo: z.object({ activated: flag, ended: flag }).optional(),
        })
        .optional(),
      involvedAgency: z.object({ invited: flag, collaboration: z.object({ changed: flag }).optional() }).optional(),
      labelChanged: flag,
      summaryChanged: flag,
      callSignChanged: flag,
      patient: z.object({ descriptionChanged: flag }).optional(),
    })
    .optional(),
});

export const ZAbout = z.object({
  version: z.string().min(1),
  supports: ZSupportsV3,
  allowsMonitoring: z.boolean().optional(),
});
export type TAbout = z.infer<typeof ZAbout>;

/** Reads a flag by its dotted name under `incident`, e.g. "caller.trackReplaced". Missing = unsupported. */
export function declares(about: TAbout | undefined, flagPath: string): boolean {
  let node: unknown = about?.supports.incident;
  for (const part of flagPath.split("."))
    node = node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
  return node === true;
}

export const isV3Version = (version: string) => /^3(\.\d+)*$/.test(version.trim());

/**
 * 1.x or 2.x: the frozen legacy contracts (Versioning rule 3: the service picks the contract from
 * `version` alone). v1 is v2 under the base route /v1 (contracts/v2/routes.ts), so both get the v2 checks.
 */
export function legacyMajorOf(version: string): 1 | 2 | undefined {
  const m = /^([12])(\.\d+)*$/.exec(version.trim());
  return m ? (Number(m[1]) as 1 | 2) : undefined;
}
