// PURE: what the console makes of a response. A body is JSON when it parses, else the text as it
// came (an empty body is null); an incident id in it is remembered for the next operation's
// {incidentId} and linked to the inspector; the status is coloured by its class.
import type { BadgeTone } from "@/app/_components/ui/badge";

export function parseResponseText(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text; // not JSON: shown as text
  }
}

/** The `incidentId` member of a JSON object body (as a string), else null. */
export function incidentIdIn(body: unknown): string | null {
  return body && typeof body === "object" && "incidentId" in body ? String(body.incidentId) : null;
}

export function statusTone(status: number): BadgeTone {
  return status < 300 ? "success" : status < 500 ? "warning" : "danger";
}
