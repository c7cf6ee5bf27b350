// Detectors of how a client sends and repeats its requests (advice-rules.ts): creates that are not
// repeatable and the duplicates they caused, refused requests sent again unchanged, retries sooner
// than Retry-After or without backoff, a call's end repeated, 409s not recovered as the spec says.
// PURE; `calls` are one client's, in time order.
import { adviceOf, type Advice } from "./advice-rules.ts";
import { bodyOf, clock, secondsBetween, type CallForAdvice } from "./call-for-advice.ts";

/** How far back a repeat is looked for. */
const REPEAT_WINDOW_MS = 10 * 60_000;
const CREATE = "POST /v1/incidents";
const REPORT_CALL = "POST /v1/calls";
const END_CALL = "POST /v1/calls/{callId}/end";

const within = (a: CallForAdvice, b: CallForAdvice) =>
  b.receivedAt.getTime() - a.receivedAt.getTime() <= REPEAT_WINDOW_MS;
const phoneOf = (body: Record<string, unknown> | null) => {
  const caller = body?.caller as { phoneNumber?: unknown } | undefined;
  return typeof caller?.phoneNumber === "string" ? caller.phoneNumber : null;
};

export function detectCreates(calls: readonly CallForAdvice[]): Advice[] {
  const found: Advice[] = [];
  const earlier: CallForAdvice[] = [];
  for (const call of calls) {
    if (call.operation !== CREATE || call.status !== 201) continue;
    const body = bodyOf(call);
    if (body?.requestedIncidentId !== undefined) continue;
    found.push(
      adviceOf(
        "create-not-repeatable",
        call,
        "Created without requestedIncidentId: a retry of this request would make a second incident.",
      ),
    );
    const phone = phoneOf(body);
    const twin = phone ? earlier.find((e) => within(e, call) && phoneOf(bodyOf(e)) === phone) : undefined;
    if (twin)
      found.push(
        adviceOf(
          "duplicate-incidents",
          call,
          `A second incident for caller ${phone} ${secondsBetween(twin, call)} s after the one created at ${clock(twin.receivedAt)} (incident ${twin.incidentId ?? "?"}), neither with requestedIncidentId.`,
        ),
      );
    earlier.push(call);
  }
  return found;
}

/** 4xx answers that name a fault of the request: 429 is a wait, not a refusal (its own rule). */
const isRefusal = (c: CallForAdvice) => c.status >= 400 && c.status < 500 && c.status !== 429 && c.fault === null;

export function detectRefusedResent(calls: readonly CallForAdvice[]): Advice[] {
  const found: Advice[] = [];
  const refused = new Map<string, CallForAdvice>();
  for (const call of calls) {
    const before = refused.get(call.request.digest);
    if (before && within(before, call))
      found.push(
        adviceOf(
          "refused-resent-unchanged",
          call,
          `Sent again unchanged ${secondsBetween(before, call)} s after the same request was answered ${before.status}${before.problemCode ? ` ${before.problemCode}` : ""} at ${clock(before.receivedAt)}.`,
        ),
      );
    if (isRefusal(call)) refused.set(call.request.digest, call);
    else refused.delete(call.request.digest);
  }
  return found;
}

export function detectRetryAfter(calls: readonly CallForAdvice[]): Advice[] {
  const found: Advice[] = [];
  for (let i = 0; i < calls.length - 1; i++) {
    const answered = calls[i]!;
    const waitS = answered.response.retryAfterS;
    if ((answered.status !== 503 && answered.status !== 429) || waitS === null || waitS <= 0) continue;
    const next = calls.slice(i + 1).find((c) => c.surface === answered.surface);
    if (!next) continue;
    const gapS = secondsBetween(answered, next);
    if (gapS < waitS)
      found.push(
        adviceOf(
          "retry-before-retry-after",
          next,
          `Sent ${gapS} s after a ${answered.status} at ${clock(answered.receivedAt)} that asked for ${waitS} s (Retry-After).`,
        ),
      );
  }
  return found;
}

/** At least this many attempts after a 5xx, at a pace that does not grow, is no backoff. */
const MIN_RETRIES = 3;

export function detectRetryWithoutBackoff(calls: readonly CallForAdvice[]): Advice[] {
  const found: Advice[] = [];
  const runs = new Map<string, CallForAdvice[]>();
  const close = (digest: string) => {
    const run = runs.get(digest);
    runs.delete(digest);
    if (!run || run.length < MIN_RETRIES + 1) return;
    const gaps = run.slice(1).map((c, i) => secondsBetween(run[i]!, c));
    // A wait a Retry-After asked for is honoured, not a missing backoff.
    const asked = run
      .slice(0, -1)
      .every((c, i) => c.response.retryAfterS !== null && gaps[i]! >= c.response.retryAfterS);
    const growing = gaps[0]! > 0 && gaps.slice(1).every((g, i) => g >= gaps[i]! * 1.5);
    if (!asked && !growing)
      found.push(
        adviceOf(
          "retry-without-backoff",
          run.at(-1)!,
          `${run.length} attempts of the same request after ${run[0]!.status}s, ${gaps.map((g) => `${g} s`).join(", ")} apart.`,
        ),
      );
  };
  for (const call of calls) {
    const digest = call.request.digest;
    const run = runs.get(digest);
    if (run && !within(run.at(-1)!, call)) close(digest);
    if (runs.has(digest)) runs.get(digest)!.push(call);
    else if (call.status >= 500) runs.set(digest, [call]);
    if (call.status < 500) close(digest);
  }
  for (const digest of [...runs.keys()]) close(digest);
  return found;
}

export function detectCallEndRepeated(calls: readonly CallForAdvice[]): Advice[] {
  return calls
    .filter((c) => c.operation === END_CALL && c.problemCode === "CallAlreadyEnded")
    .map((c) =>
      adviceOf("call-end-repeated", c, "Answered 409 CallAlreadyEnded: this call's end had been sent already."),
    );
}

export function detectConflictRecovery(calls: readonly CallForAdvice[]): Advice[] {
  const found: Advice[] = [];
  calls.forEach((conflict, i) => {
    const later = calls.slice(i + 1).filter((c) => within(conflict, c));
    const body = bodyOf(conflict);
    if (conflict.problemCode === "CallAlreadyExists") {
      const key = `${String(body?.callerPhoneNumber)} ${String(body?.startedAtUtc)}`;
      const again = later.find((c) => {
        const b = bodyOf(c);
        return (
          c.operation === REPORT_CALL &&
          `${String(b?.callerPhoneNumber)} ${String(b?.startedAtUtc)}` === key &&
          b?.endedAtUtc
        );
      });
      if (again)
        found.push(
          adviceOf(
            "conflict-recovery",
            again,
            `After 409 CallAlreadyExists at ${clock(conflict.receivedAt)}, the call was reported again with endedAtUtc instead of without it.`,
          ),
        );
    }
    if (conflict.problemCode === "IncidentAlreadyExists" && typeof body?.requestedIncidentId === "string") {
      const again = later.find(
        (c) => c.operation === CREATE && bodyOf(c)?.requestedIncidentId === body.requestedIncidentId,
      );
      if (again)
        found.push(
          adviceOf(
            "conflict-recovery",
            again,
            `After 409 IncidentAlreadyExists at ${clock(conflict.receivedAt)}, the same requestedIncidentId was created again instead of continuing on /v1/incidents/${body.requestedIncidentId}.`,
          ),
        );
    }
  });
  return found;
}
