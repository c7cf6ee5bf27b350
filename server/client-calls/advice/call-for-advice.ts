// What the advice detectors read of a recorded call (advise-calls.ts): its facts, and the request
// body where a rule needs it (creates and calls). Time order is id order.
import type { CallSurface, RequestFacts, ResponseFacts, TokenFacts } from "../call-record.ts";

export type CallForAdvice = {
  id: string;
  receivedAt: Date;
  surface: CallSurface;
  operation: string;
  method: string;
  clientId: string | null;
  status: number;
  problemCode: string | null;
  request: RequestFacts;
  requestBody: string | null;
  response: ResponseFacts;
  token: TokenFacts | null;
  fault: string | null;
  console: boolean;
  incidentId: string | null;
};

/** What the detectors may look up beyond the calls: the agencies involved in an incident, a client's agencies. */
export type AdviceContext = {
  incidentAgencies?: ReadonlyMap<string, readonly string[]>;
  clientAgencies?: ReadonlyMap<string, readonly string[]>;
};

/** The JSON body of a call, or null. */
export function bodyOf(call: CallForAdvice): Record<string, unknown> | null {
  if (call.requestBody === null) return null;
  try {
    const value = JSON.parse(call.requestBody) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Seconds between two calls, one decimal. */
export const secondsBetween = (a: CallForAdvice, b: CallForAdvice) =>
  Math.round((b.receivedAt.getTime() - a.receivedAt.getTime()) / 100) / 10;

export const clock = (d: Date) => d.toISOString().slice(11, 23);
