// The capability declaration a receiver answers on GET /about
// (platform-interface.md, "Webhook capability declaration"). `supports` is
// required; every nested group and flag is optional and a missing one means
// unsupported. A flag or group sent as `null` reads as missing (unsupported), so one null does
// not reject the rest of the declaration; any other non-boolean flag value is rejected with its
// path. Unknown members are ignored (a newer 3.x receiver may add some).
import { z } from "zod";

const flag = z.boolean().nullish();
const group = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape).nullish();

export const ZSupportsV3 = z.looseObject({
  incident: group({
    created: flag,
    closed: flag,
    changed: flag,
    caller: group({
      changed: flag,
      newLocation: flag,
      trackReplaced: flag,
      fullNameChanged: flag,
      phoneNumberChanged: flag,
      deviceInfoChanged: flag,
      chat: group({ activated: flag }),
      liveVideo: group({ activated: flag, ended: flag }),
    }),
    involvedAgency: group({
      invited: flag,
      collaboration: group({ changed: flag }),
    }),
    labelChanged: flag,
    summaryChanged: flag,
    callSignChanged: flag,
    patient: group({ descriptionChanged: flag }),
  }),
});

export const ZAboutDeclaration = z.looseObject({
  version: z.string().min(1).describe("implemented contract version; for v3 a 3.x value"),
  supports: ZSupportsV3,
  allowsMonitoring: z.boolean().nullish().describe("advisory only: recorded, never acted on"),
});
export type TAboutDeclaration = z.infer<typeof ZAboutDeclaration>;

/** The v3 flags by the names the spec uses (incident.* for the top three, the rest relative to `incident`). */
export const V3_FLAGS = [
  "incident.created",
  "incident.closed",
  "incident.changed",
  "caller.changed",
  "caller.newLocation",
  "caller.trackReplaced",
  "caller.fullNameChanged",
  "caller.phoneNumberChanged",
  "caller.deviceInfoChanged",
  "caller.chat.activated",
  "caller.liveVideo.activated",
  "caller.liveVideo.ended",
  "involvedAgency.invited",
  "involvedAgency.collaboration.changed",
  "labelChanged",
  "summaryChanged",
  "callSignChanged",
  "patient.descriptionChanged",
] as const;
export type V3Flag = (typeof V3_FLAGS)[number];

/** The declared (true) flags of a declaration. */
export function flattenSupports(supports: z.infer<typeof ZSupportsV3>): V3Flag[] {
  const incident = (supports.incident ?? {}) as Record<string, unknown>;
  return V3_FLAGS.filter((name) => {
    const path = name.startsWith("incident.") ? name.slice("incident.".length).split(".") : name.split(".");
    let node: unknown = incident;
    for (const key of path)
      node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
    return node === true;
  });
}

/** Major version from `version` ("3", "3.1", "3.1.4" → 3); undefined when unreadable. */
export function majorVersionOf(version: string): number | undefined {
  const m = /^v?(\d+)(?:\.|$)/.exec(version.trim());
  return m ? Number(m[1]) : undefined;
}
