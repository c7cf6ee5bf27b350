"use client";
// The selected delivery's actions, wrapping onto a second line in a narrow panel rather than
// running off-screen: show its lane, export it or its lane, copy it as cURL, resend this delivery
// (its request replayed now, outside the lane, under a new Service-Request-Id: resend-delivery.ts),
// resend the incident (the create-and-track sequence behind the lane's queue, spec Delivery rule 5).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { CopyButton } from "@/app/_components/ui/copy-button";
import { useTRPC } from "@/app/_trpc/react";
import type { TExportDeliveriesInput } from "@/server/webhooks/admin/export-file-name";
import { calls, useMayCall } from "../_components/may-call";

export function DeliveryActions({
  delivery: d,
  curl,
  exporting,
  onExport,
  onShowLane,
}: {
  delivery: { requestId: string; incidentId: string; integration: string };
  curl: string | null;
  exporting: boolean;
  onExport: (input: TExportDeliveriesInput) => void;
  onShowLane: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.deliveries.inspect.queryKey() });
  const resendIncident = useMutation(trpc.deliveries.resend.mutationOptions({ onSuccess: refresh }));
  const resendDelivery = useMutation(trpc.deliveries.resendDelivery.mutationOptions());
  const mayResendDelivery = useMayCall("deliveries.resendDelivery");
  const mayResendIncident = useMayCall("deliveries.resend");
  const outline = "border border-slate-300";
  return (
    <div className="grid min-w-0 gap-2">
      <div className="flex min-w-0 flex-wrap items-center gap-1.5" role="toolbar" aria-label="Delivery actions">
        <Button size="sm" variant="secondary" onClick={onShowLane}>
          Show lane
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={exporting}
          title="This delivery as a JSON file: request, every attempt's response, timing"
          onClick={() => onExport({ requestId: d.requestId })}
        >
          Export
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={exporting}
          title="Every delivery of this incident to this integration, in lane order, as one JSON file"
          onClick={() => onExport({ incidentId: d.incidentId, integration: d.integration })}
        >
          Export lane
        </Button>
        {curl ? (
          <CopyButton
            value={curl}
            label="Copy as cURL"
            showLabel
            className={`h-8 px-2.5 ${outline}`}
            title="The last attempt's request as a curl command. The recorded token is redacted, so the command sends $TOKEN: set TOKEN to a Publisher token for this agency first."
          />
        ) : (
          <Button size="sm" variant="secondary" disabled title="Not sent yet: there is no request to copy">
            Copy as cURL
          </Button>
        )}
        {mayResendDelivery && (
          <Button
            {...calls("deliveries.resendDelivery")}
            size="sm"
            variant="secondary"
            disabled={resendDelivery.isPending}
            title="Send this request again now, outside the lane and under a new Service-Request-Id: the receiver applies it as a new event, whatever came after it"
            onClick={() => resendDelivery.mutate({ requestId: d.requestId })}
          >
            Resend this delivery
          </Button>
        )}
        {mayResendIncident && (
          <Button
            {...calls("deliveries.resend")}
            size="sm"
            disabled={resendIncident.isPending}
            title="Re-plan the incident's create-and-track sequence behind the lane's queue (after an outage)"
            onClick={() => resendIncident.mutate({ incidentId: d.incidentId, integration: d.integration })}
          >
            Resend incident
          </Button>
        )}
      </div>
      {resendDelivery.isSuccess && (
        <Alert tone={resendDelivery.data.step.accepted ? "success" : "warning"} title="Resent this delivery">
          <span data-testid="resend-delivery-result">
            {resendDelivery.data.step.status ?? "no response"}
            {resendDelivery.data.step.error ? ` — ${resendDelivery.data.step.error}` : ""} in{" "}
            {resendDelivery.data.step.durationMs} ms, as {resendDelivery.data.step.requestId.slice(0, 8)} (a replay: not
            in the lane, no retries).
          </span>
        </Alert>
      )}
      {resendDelivery.isError && (
        <Alert tone="danger" title="Resend refused">
          {resendDelivery.error.message}
        </Alert>
      )}
      {resendIncident.isSuccess && (
        <Alert tone="success">
          Re-planned {resendIncident.data.planned.length} event(s) behind the lane&apos;s queue.
        </Alert>
      )}
      {resendIncident.isError && (
        <Alert tone="danger" title="Resend refused">
          {resendIncident.error.message}
        </Alert>
      )}
    </div>
  );
}
