// PURE: why a v3 event is not the one its change names, derived from the change's kind, the
// event sent and the receiver's declared flags (platform-interface.md, "Webhook receiver routes",
// rules 2–6, as plan-events.ts applies them). Derived rather than recorded: planning stays as it
// is on the hot path, and every case below follows from those three facts. The one it cannot tell
// apart — an append sent whole because the receiver lacked caller.newLocation, or because it did not
// hold that track in full yet (a first location, a resend, or a whole track that expired before it:
// decide-expired-track.ts) — it names by the declaration it reads now, which may have changed since.
import { operationOf, v3FlagOfEventName } from "../../webhook-contracts/v3/routes.ts";

const CALLER_PATCH_KINDS: Record<string, string> = {
  "caller.fullNameChanged": "A name change",
  "caller.phoneNumberChanged": "A phone number change",
  "caller.deviceInfoChanged": "A device info change",
};

export function explainRewrite(options: {
  changeKind: string | null;
  eventName: string;
  path: string;
  /** The receiver's declared v3 flags; null when unknown (no accepted declaration). */
  flags: readonly string[] | null;
}): string | null {
  const { changeKind, eventName, path, flags } = options;
  if (!changeKind || !path.startsWith("/v3/")) return null;
  const declares = (flag: string) => flags?.includes(flag) ?? false;
  const event = v3FlagOfEventName(eventName);
  if (!event) return null;
  const { flag, standsFor } = event;
  if (standsFor)
    return `Sent as the generic POST changed (standing for ${operationOf(standsFor)}): the receiver does not declare ${standsFor} but declares incident.changed (rule 2).`;
  if (flag === "caller.changed" && changeKind in CALLER_PATCH_KINDS)
    return `${CALLER_PATCH_KINDS[changeKind]} sent as PUT caller (the whole caller): the receiver declares caller.changed, which supersedes the caller PATCHes (rule 3).`;
  if (flag === "caller.trackReplaced" && changeKind === "caller.newLocation") {
    const why = declares("caller.newLocation")
      ? "the receiver did not hold this source's whole track yet (its first location here, a resend, or a whole track that expired before this append), and appends follow only a whole track (rule 5)"
      : "the receiver does not declare caller.newLocation, so every new location goes as the whole track (rule 4)";
    return `An appended location sent as the whole track (PUT caller/track): ${why}.`;
  }
  if ((flag === "incident.created" || flag === "caller.trackReplaced") && changeKind !== "incident.created")
    return `Part of the create-and-track sequence (rule 6): this receiver had not been sent the incident yet (newly involved, a resend after an outage, or a cutover to another major version), so the ${changeKind} change went as the whole incident.`;
  return null;
}
