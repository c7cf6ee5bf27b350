// The v3 capability flags (platform-interface.md, "Webhook capability declaration" and the v3
// event routes table): the one list every other reads — discovery's and the conformance kit's
// /about parsers, the planner, the reference receiver's declaration, the dashboard's tree and
// the route table (routes.ts). A flag has two spellings, both derived here:
// - its name, as the spec's route table writes it: `incident.created`, `incident.closed` and
//   `incident.changed` carry the `incident.` prefix, the others are relative to `incident`
//   (`caller.newLocation`, `labelChanged`). Discovery stores these, the planner reads them;
// - its wire path, where /about declares it under `supports.incident` (`created`,
//   `caller.newLocation`). The reference receiver records and toggles flags by these.

/** Every v3 flag by the spec's name, in the spec's order. Adding a flag is this one line. */
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

/** A flag's wire path: where /about declares it, below `supports.incident` (`incident.created` → `created`). */
export type V3FlagPath<F extends V3Flag = V3Flag> = F extends `incident.${infer Rest}` ? Rest : F;

export const flagPathOf = <F extends V3Flag>(flag: F): V3FlagPath<F> =>
  (flag.startsWith("incident.") ? flag.slice("incident.".length) : flag) as V3FlagPath<F>;

/** Every flag's wire path, in the order of V3_FLAGS. */
export const V3_FLAG_PATHS: readonly V3FlagPath[] = V3_FLAGS.map(flagPathOf);

/** The flag of a wire path, undefined when it names none. */
export function flagOfPath(path: string): V3Flag | undefined {
  const i = (V3_FLAG_PATHS as readonly string[]).indexOf(path);
  return i < 0 ? undefined : V3_FLAGS[i];
}

/** The first segment of each dotted path (`caller.chat.activated` → `caller`). */
export type FlagHead<P extends string> = P extends `${infer H}.${string}` ? H : P;
/** What follows `H.` in the paths that start with it; never when `H` is a flag itself. */
export type FlagsBelow<P extends string, H extends string> = P extends `${H}.${infer R}` ? R : never;

/**
 * The nested groups and flags of dotted paths as an object shape, in the paths' order: the tree
 * the spec draws under `supports.incident`. `leaf` makes a flag's value, `group` a nested group's.
 */
export function flagTreeShape<T>(
  paths: readonly string[],
  leaf: () => T,
  group: (shape: Record<string, T>) => T,
): Record<string, T> {
  const shape: Record<string, T> = {};
  for (const head of new Set(paths.map((p) => p.split(".")[0]!))) {
    const below = paths.filter((p) => p.startsWith(`${head}.`)).map((p) => p.slice(head.length + 1));
    shape[head] = below.length > 0 ? group(flagTreeShape(below, leaf, group)) : leaf();
  }
  return shape;
}
