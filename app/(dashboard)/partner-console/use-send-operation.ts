"use client";
// Sends a console request from the browser and keeps what came back: status, headers, the body
// (read-console-response.ts) and the time it took. An incident id in the answer is remembered for
// the next operation's {incidentId}.
import { useState } from "react";
import type { ConsoleRequest } from "./build-request";
import { incidentIdIn, parseResponseText } from "./read-console-response";
import { CONSOLE_HEADER } from "@/server/client-calls/console-header";

export type Outcome = {
  request: ConsoleRequest;
  status: number;
  headers: Record<string, string>;
  body: unknown;
  ms: number;
};

const lastIncident = { id: "" }; // remembered across operation switches (module state is fine: one console per tab)

/** The incident the console last created or was answered with, "" before any. */
export const rememberedIncidentId = () => lastIncident.id;

export function useSendOperation() {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(request: ConsoleRequest) {
    setBusy(true);
    const t0 = performance.now();
    try {
      const res = await fetch(request.url, {
        method: request.method,
        // Marked as the console's on the API calls page (docs/api-calls.md); not part of the request shown.
        headers: { ...request.headers, [CONSOLE_HEADER]: "1" },
        body: request.body ?? undefined,
      });
      const parsed = parseResponseText(await res.text());
      const id = incidentIdIn(parsed);
      if (id) lastIncident.id = id;
      setOutcome({
        request,
        status: res.status,
        headers: Object.fromEntries(res.headers.entries()),
        body: parsed,
        ms: Math.round(performance.now() - t0),
      });
    } finally {
      setBusy(false);
    }
  }
  return { outcome, busy, send };
}
