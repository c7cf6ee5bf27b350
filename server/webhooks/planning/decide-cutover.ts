// PURE decision (CONTRIBUTING.md, 'Pure decisions'): what an accepted /about declaration of one major
// version means for one lane's unfinished events planned under another (platform-interface.md,
// Versioning rule 3: "return a 3.x version to cut over; after that v2 event routes can be
// removed"; Delivery rule 7: one major version to an integration at a time; decision 0049).
//
// - A queued (pending) event of another contract is superseded: it is never sent, so a receiver
//   that removed those routes does not answer it 404 for an hour while the lane waits behind it.
// - An event of another contract already claimed (delivering) may be in flight: it finishes or
//   fails as it is, and is superseded on its outcome rather than retried (deliver-event.ts).
// - The lane is introduced again under the accepted contract — the create-and-track sequence of the
//   incident's current snapshot, behind whatever is still in flight — when something of another
//   contract was superseded or is still unfinished, unless the lane was already planned under the
//   accepted contract: a change planned since the acceptance started it anew (legacy-lane.ts), and
//   its create-and-track sequence is queued behind every event of the old contract.
// A lane with nothing unfinished of another contract is left alone: its next change starts the
// accepted contract with the create-and-track sequence (legacy-lane.ts).
//
// The same holds for events planned for the receiver an integration had before its URL changed
// (decision 0062): of another receiver, they are superseded as events of another contract are, and
// the lane — reset by the move — is introduced to the new receiver unless a change already did.
import { contractOfPath } from "../outbox/outbox-row.ts";

export type UnfinishedEvent = { id: bigint; state: "pending" | "delivering"; path: string };

export type CutoverDecision = {
  /** Pending events of another contract, in lane order: superseded, never sent. */
  supersede: bigint[];
  /** Plan the create-and-track sequence of the current snapshot under the accepted contract. */
  introduce: boolean;
};

export function decideCutover(input: {
  acceptedMajor: 1 | 2 | 3;
  /** The contract the lane's planning state was last written under (legacy-lane.ts), null without a lane row. */
  laneMajor: number | null;
  /** Whether the lane's row says its create-and-track sequence was planned; null without a lane row. */
  laneIntroduced?: boolean | null;
  /** Events up to this id were planned for the integration's earlier receiver (decision 0062); null: none. */
  movedAfterId?: bigint | null;
  /** The lane's unfinished events, in lane order. */
  unfinished: readonly UnfinishedEvent[];
  /** An event of another contract was just superseded on its outcome (it is no longer among `unfinished`). */
  supersededClaimed?: boolean;
}): CutoverDecision {
  const other = input.unfinished.filter((e) => plannedForAnother(e, input));
  const supersede = other.filter((e) => e.state === "pending").map((e) => e.id);
  const affected = other.length > 0 || input.supersededClaimed === true;
  // Already started anew under the accepted contract and receiver: its sequence is queued behind.
  const startedAnew = input.laneMajor === input.acceptedMajor && input.laneIntroduced !== false;
  return { supersede, introduce: affected && !startedAnew };
}

/** Planned under another contract than the accepted one, or for the integration's earlier receiver. */
export function plannedForAnother(
  e: { id: bigint; path: string },
  accepted: { acceptedMajor: number; movedAfterId?: bigint | null },
): boolean {
  const moved = accepted.movedAfterId ?? null;
  return contractOfPath(e.path) !== accepted.acceptedMajor || (moved !== null && e.id <= moved);
}
