// What a call caused, noted during the request for the API calls recorder (record-client-calls.ts):
// the incident it changed and the seqs of the change records it wrote (docs/api-calls.md).
import type { Context } from "hono";

export type CallEffects = { incidentId: string | null; changeSeqs: number[] };

const EFFECTS = "clientCallEffects";

/** The effects noted so far (the recorder's middleware puts an empty one on the context first). */
export function callEffectsOf(c: Context): CallEffects | undefined {
  return c.get(EFFECTS as never) as CallEffects | undefined;
}

export function startCallEffects(c: Context): CallEffects {
  const effects: CallEffects = { incidentId: null, changeSeqs: [] };
  c.set(EFFECTS as never, effects as never);
  return effects;
}

/** For the domain's onRecorded: the change records a call committed. */
export const noteRecordedChanges =
  (c: Context) =>
  (changes: ReadonlyArray<{ incidentId: string; seq: number }>): void => {
    const effects = callEffectsOf(c);
    if (!effects) return;
    for (const change of changes) {
      effects.incidentId ??= change.incidentId;
      effects.changeSeqs.push(change.seq);
    }
  };
