// Breaking the platform on purpose, for a partner's client (docs/api-calls.md): inbound faults, as
// receiver faults are outbound. A fault answers calls on one surface (/connect/token, /v1, /Account),
// optionally one operation, for one client or all, instead of the platform: 503 with Retry-After
// (`temporarily_unavailable` at the token endpoint), 500, 429 with Retry-After, added latency, or a
// reset connection; for the next N calls, for a while (workbench time), or for a percentage of calls.
// A faulted call reaches no handler, so a faulted write records no change.
import { randomUUID } from "node:crypto";
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { Prisma } from "../platform/db/client.ts";
import { sqlQuery } from "../platform/db/sql-transaction.ts";
import { AppError } from "../platform/errors.ts";
import { parseDuration } from "../platform/time/parse-duration.ts";
import { CALL_SURFACES, type CallSurface } from "./call-record.ts";

export type ClientFaultMode =
  | { kind: "ok" }
  | { kind: "http-503" }
  | { kind: "http-500" }
  | { kind: "http-429" }
  | { kind: "slow"; ms: number }
  /** The connection is destroyed without an answer. */
  | { kind: "reset" };

export const CLIENT_FAULT_MODES = "ok|http-503|http-500|http-429|slow:<ms>|reset";
/** What 503 and 429 fault answers say in Retry-After, unless the fault names its own. */
export const DEFAULT_RETRY_AFTER_S = 5;

export function parseClientFaultMode(text: string): ClientFaultMode | undefined {
  const t = text.trim();
  if (t === "ok" || t === "http-503" || t === "http-500" || t === "http-429" || t === "reset") return { kind: t };
  const slow = /^slow:(\d{1,5})$/.exec(t);
  if (slow && Number(slow[1]) <= 60_000) return { kind: "slow", ms: Number(slow[1]) };
  return undefined;
}

export type ClientFault = {
  id: string;
  clientId: string | null;
  surface: CallSurface;
  operation: string | null;
  mode: string;
  retryAfterS: number;
  remaining: number | null;
  until: Date | null;
  percent: number | null;
  createdAt: Date;
  createdBy: string;
};

export type CallToFault = { clientId: string | null; surface: CallSurface; operation: string };

/**
 * The fault that answers a call, PURE: the most specific one that matches (a client's own before
 * every client's, one operation before the whole surface), still running (calls left, time left),
 * and, for a percentage, when `roll` (0 ≤ roll < 100) falls under it.
 */
export function faultFor(faults: readonly ClientFault[], call: CallToFault, nowMs: number, roll: number) {
  const live = faults.filter(
    (f) =>
      f.surface === call.surface &&
      (f.clientId === null || f.clientId === call.clientId) &&
      (f.operation === null || f.operation === call.operation) &&
      (f.remaining === null || f.remaining > 0) &&
      (f.until === null || f.until.getTime() > nowMs),
  );
  const rank = (f: ClientFault) => (f.clientId === null ? 0 : 2) + (f.operation === null ? 0 : 1);
  const chosen = live.sort((a, b) => rank(b) - rank(a))[0];
  if (!chosen || (chosen.percent !== null && roll >= chosen.percent)) return undefined;
  return chosen;
}

/** What a fault is, in words (the page, the CLI). */
export function describeClientFault(f: ClientFault, nowMs: number): string {
  const who = f.clientId ?? "every client";
  const where = f.operation ?? f.surface;
  const limits = [
    f.remaining !== null ? `${f.remaining} call${f.remaining === 1 ? "" : "s"} left` : null,
    f.until !== null ? `${Math.max(0, Math.ceil((f.until.getTime() - nowMs) / 1000))} s left` : null,
    f.percent !== null ? `${f.percent} % of calls` : null,
  ].filter(Boolean);
  const mode = f.mode === "http-503" || f.mode === "http-429" ? `${f.mode} (Retry-After ${f.retryAfterS} s)` : f.mode;
  return `${mode} for ${who} on ${where}${limits.length ? `, ${limits.join(", ")}` : ", until cleared"}`;
}

type Deps = { db: DbClient; clock: Clock };

export type SetClientFaultInput = {
  clientId?: string | null;
  surface: string;
  operation?: string | null;
  mode: string;
  /** "10m", "90s": how long (workbench time). */
  for?: string;
  count?: number;
  percent?: number;
  retryAfterS?: number;
};

const invalid = (field: string, message: string) => new AppError("ValidationFailed", message, [{ field, message }]);

/**
 * Sets the fault of a (client, surface, operation), replacing the one there; `ok` clears it. Bounded:
 * a count of 1–10,000, a duration up to a day, a percentage of 1–100, Retry-After of 0–3,600 s.
 */
export async function setClientFault(
  options: Deps & { input: SetClientFaultInput; createdBy: string },
): Promise<ClientFault | null> {
  const { db, clock, input } = options;
  if (!(CALL_SURFACES as readonly string[]).includes(input.surface))
    throw invalid("surface", `"${input.surface}" is not a surface: use token, v1 or account.`);
  const surface = input.surface as CallSurface;
  const mode = parseClientFaultMode(input.mode);
  if (!mode) throw invalid("mode", `"${input.mode}" is not a fault mode: use ${CLIENT_FAULT_MODES}.`);
  const forMs = input.for ? parseDuration(input.for) : undefined;
  if (input.for && (forMs === undefined || forMs <= 0 || forMs > 86_400_000))
    throw invalid("for", `"${input.for}" is not a duration up to a day: use e.g. 90s, 10m, 2h.`);
  if (input.count !== undefined && !(Number.isInteger(input.count) && input.count >= 1 && input.count <= 10_000))
    throw invalid("count", "count: a whole number of calls from 1 to 10,000.");
  if (input.percent !== undefined && !(Number.isInteger(input.percent) && input.percent >= 1 && input.percent <= 100))
    throw invalid("percent", "percent: a whole number from 1 to 100.");
  const retryAfterS = input.retryAfterS ?? DEFAULT_RETRY_AFTER_S;
  if (!(Number.isInteger(retryAfterS) && retryAfterS >= 0 && retryAfterS <= 3_600))
    throw invalid("retryAfterS", "Retry-After: whole seconds from 0 to 3,600.");
  const clientId = input.clientId?.trim() || null;
  const operation = input.operation?.trim() || null;
  if (clientId && clientId.length > 64) throw invalid("clientId", "clientId: at most 64 characters.");
  if (operation && operation.length > 200) throw invalid("operation", "operation: at most 200 characters.");
  await db.clientFault.deleteMany({ where: { clientId, surface, operation } });
  if (mode.kind === "ok") return null;
  const now = clock.now();
  const row = await db.clientFault.create({
    data: {
      id: randomUUID(),
      clientId,
      surface,
      operation,
      mode: input.mode.trim(),
      retryAfterS,
      remaining: input.count ?? null,
      until: forMs === undefined ? null : new Date(now.getTime() + forMs),
      percent: input.percent ?? null,
      createdAt: now,
      createdBy: options.createdBy.slice(0, 100),
    },
  });
  return toFault(row);
}

const toFault = (row: Omit<ClientFault, "surface"> & { surface: string }): ClientFault => ({
  ...row,
  surface: row.surface as CallSurface,
});

export async function listClientFaults(options: { db: DbClient }): Promise<ClientFault[]> {
  const rows = await options.db.clientFault.findMany({ orderBy: { createdAt: "asc" } });
  return rows.map(toFault);
}

/** Clears one fault, or all (`id` absent); says how many went. */
export async function clearClientFaults(options: { db: DbClient; id?: string }): Promise<number> {
  const { count } = await options.db.clientFault.deleteMany({ where: options.id ? { id: options.id } : {} });
  return count;
}

/**
 * Spends one call of a counted fault, across every process on the database: false when another
 * call took the last one first (the call is then answered by the platform).
 */
export async function spendFaultCall(db: DbClient, fault: ClientFault): Promise<boolean> {
  if (fault.remaining === null) return true;
  const rows = await sqlQuery<{ remaining: number }>(
    db,
    Prisma.sql`UPDATE "ClientFault" SET remaining = remaining - 1 WHERE id = ${fault.id}::uuid AND remaining > 0
               RETURNING remaining`,
  );
  return rows.length > 0;
}
