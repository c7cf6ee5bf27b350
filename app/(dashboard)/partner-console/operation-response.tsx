"use client";
// The response of a console request in full: status, time and type, links to the incident's
// deliveries and replica when there is one, the headers (folded) and the body.
import Link from "next/link";
import { JsonView } from "@/app/_components/json/json-view";
import { Badge } from "@/app/_components/ui/badge";
import { statusTone } from "./read-console-response";
import type { Outcome } from "./use-send-operation";

export function OperationResponse({ outcome, incidentId }: { outcome: Outcome; incidentId: string | undefined }) {
  return (
    <div className="grid gap-2" data-testid="operation-response">
      <p className="flex items-center gap-2 text-sm">
        <Badge tone={statusTone(outcome.status)}>{outcome.status}</Badge>
        <span className="text-slate-600">
          {outcome.ms} ms · {outcome.headers["content-type"] ?? "no content type"}
        </span>
        {incidentId && (
          <span className="ml-auto flex gap-3 text-sm">
            <Link className="underline" href={`/deliveries?incident=${incidentId}`}>
              Deliveries of this incident
            </Link>
            <Link className="underline" href={`/reference-receivers?incident=${incidentId}`}>
              Receiver replica
            </Link>
          </span>
        )}
      </p>
      <details className="text-xs">
        <summary className="cursor-pointer">Response headers</summary>
        <JsonView value={outcome.headers} />
      </details>
      <JsonView value={outcome.body} expandDepth={3} maxHeight="24rem" />
    </div>
  );
}
