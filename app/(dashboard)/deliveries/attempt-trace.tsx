"use client";
// The trace an attempt belongs to, when tracing was on as it was sent (docs/observability.md,
// "Traces"): the id of the traceparent it carried, and a link to it in the trace UI that
// TRACE_UI_URL names (Jaeger, Grafana Tempo, …), when one is configured.
import { ExternalLink } from "lucide-react";
import { CopyButton } from "@/app/_components/ui/copy-button";
import type { DeliveryAttempt } from "./use-delivery";

export function AttemptTrace({ attempt }: { attempt: DeliveryAttempt }) {
  if (!attempt.traceId) return null;
  return (
    <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs" data-testid="attempt-trace">
      <span className="text-slate-600">Trace</span>
      <span className="flex min-w-0 items-center gap-1">
        <span className="min-w-0 font-mono break-all">{attempt.traceId}</span>
        <CopyButton value={attempt.traceId} label="Copy trace id" />
      </span>
      {attempt.traceUrl && (
        <a
          href={attempt.traceUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 text-orange-800 underline hover:text-orange-950"
        >
          Open in trace UI
          <ExternalLink className="size-3" aria-hidden />
        </a>
      )}
    </p>
  );
}
