// The capability declaration a receiver answers on GET /about (platform-interface.md, "Webhook
// capability declaration"), as a type a QA engineer's editor checks and explains. The kit is
// standalone (it imports nothing of the workbench), so this is a copy of the server's schema
// (server/webhook-contracts/v3/capabilities.schema.ts) and flag list (capability-flags.ts);
// server-copies.test.ts fails the build when they differ.

/** A v3 flag a receiver can declare on /about, by the spec's name. */
export type V3Flag =
  | "incident.created"
  | "incident.closed"
  | "incident.changed"
  | "caller.changed"
  | "caller.newLocation"
  | "caller.trackReplaced"
  | "caller.fullNameChanged"
  | "caller.phoneNumberChanged"
  | "caller.deviceInfoChanged"
  | "caller.chat.activated"
  | "caller.liveVideo.activated"
  | "caller.liveVideo.ended"
  | "involvedAgency.invited"
  | "involvedAgency.collaboration.changed"
  | "labelChanged"
  | "summaryChanged"
  | "callSignChanged"
  | "patient.descriptionChanged";

/** Every v3 flag, in the spec's order. */
export const V3_FLAGS: readonly V3Flag[] = [
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
];

/** The capability flags v3Declaration takes: `{ labelChanged: false }`; a flag not named is true. */
export type V3Flags = Partial<Record<V3Flag, boolean>>;

/**
 * What a receiver takes, as the nested groups of the spec; each flag asks for one route below
 * {receiver_url}/v3/incidents. A missing group or flag means unsupported: the platform sends nothing for it.
 */
export type V3Supports = {
  incident?: {
    /** POST /v3/incidents: a new incident. A v3 receiver must declare this or `changed`. */
    created?: boolean | null;
    /** POST …/{id}/closed. */
    closed?: boolean | null;
    /** POST …/{id}/changed: the whole incident after a change. A v3 receiver must declare this or `created`. */
    changed?: boolean | null;
    caller?: {
      /** PUT …/{id}/caller: the caller's whole record. */
      changed?: boolean | null;
      /** POST …/{id}/caller/track: one new position. */
      newLocation?: boolean | null;
      /** PUT …/{id}/caller/track: a source's track replaced. */
      trackReplaced?: boolean | null;
      /** PATCH …/{id}/caller/full-name. */
      fullNameChanged?: boolean | null;
      /** PATCH …/{id}/caller/phone-number. */
      phoneNumberChanged?: boolean | null;
      /** PATCH …/{id}/caller/device-info. */
      deviceInfoChanged?: boolean | null;
      /** `activated`: POST …/{id}/caller/chat/activated. */
      chat?: { activated?: boolean | null } | null;
      /** `activated`, `ended`: POST …/{id}/caller/live-video/activated, …/ended. */
      liveVideo?: { activated?: boolean | null; ended?: boolean | null } | null;
    } | null;
    involvedAgency?: {
      /** POST …/{id}/involved-agency: another agency invited. */
      invited?: boolean | null;
      /** `changed`: PATCH …/{id}/involved-agency/{agencyId}/collaboration. */
      collaboration?: { changed?: boolean | null } | null;
    } | null;
    /** PATCH …/{id}/label. */
    labelChanged?: boolean | null;
    /** PATCH …/{id}/summary. */
    summaryChanged?: boolean | null;
    /** PATCH …/{id}/call-sign. */
    callSignChanged?: boolean | null;
    /** `descriptionChanged`: PATCH …/{id}/patient/description. */
    patient?: { descriptionChanged?: boolean | null } | null;
  } | null;
};

/**
 * The body of GET /about: the contract version a receiver implements and what it takes. Build a v3
 * one from capability flags with `v3Declaration({ labelChanged: false })`.
 */
export type AboutDeclaration = {
  /** The contract version implemented: a 3.x value ("3.0") for v3; "2.0" or "1.0" selects the frozen legacy contract. */
  version: string;
  /** What the receiver takes; a missing (or null) group or flag means unsupported. */
  supports: V3Supports;
  /** Advisory only: the platform records it and never acts on it (default false). */
  allowsMonitoring?: boolean | null;
};

/**
 * A v3 /about declaration from capability flags: every flag true unless `flags` says otherwise.
 * `v3Declaration({ labelChanged: false })` declares everything but label changes.
 */
export function v3Declaration(flags: V3Flags = {}, version = "3.0"): AboutDeclaration {
  const incident: Record<string, unknown> = {};
  for (const flag of V3_FLAGS) {
    const path = flag.startsWith("incident.") ? flag.split(".").slice(1) : flag.split(".");
    let node = incident;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[path.at(-1)!] = flags[flag] ?? true;
  }
  return { version, supports: { incident }, allowsMonitoring: false };
}

/**
 * Why a value is not a declaration, or null when it is one. For JavaScript callers and values
 * built at run time: the flags form passed where a declaration belongs would otherwise show only
 * as a rejected discovery, 15 s later.
 */
export function declarationProblem(value: unknown): string | null {
  const hint = "pass an /about body, e.g. v3Declaration({ labelChanged: false })";
  if (value === null || typeof value !== "object" || Array.isArray(value)) return `not an object: ${hint}`;
  const { version, supports } = value as { version?: unknown; supports?: unknown };
  if (typeof version !== "string" || version === "") return `no "version": ${hint}`;
  if (supports === null || typeof supports !== "object" || Array.isArray(supports)) return `no "supports": ${hint}`;
  return null;
}
