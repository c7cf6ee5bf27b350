"use client";
// One delivery in full: its state in words that say why (and, when the capability rules changed the
// event, why), what was sent (headers with the token redacted, pretty JSON), what came back on each
// attempt, and what changed in the incident. Actions: copy as cURL, resend this delivery (a replay
// of its request, outside the lane), resend the incident (spec Delivery rule 5), export.
import { useState } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { CopyButton } from "@/app/_components/ui/copy-button";
import { Countdown } from "@/app/_components/ui/countdown";
import { KeyValueList } from "@/app/_components/ui/key-value";
import { RelativeTime } from "@/app/_components/ui/relative-time";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { describeDeliveryStatus, summarizeAttempts } from "@/server/webhooks/admin/describe-delivery-status";
import { buildCurl } from "./build-curl";
import { DeliveryActions } from "./delivery-actions";
import { DeliveryTabs } from "./delivery-detail-tabs";
import { describeExpiry, describeNextAttempt } from "./describe-delivery-timing";
import { type DeliveryInFull, isNotFound, useDelivery } from "./use-delivery";
import { useDeliveryExport } from "./use-delivery-export";

export function DeliveryDetail({
  requestId,
  nowMs,
  clockOffsetMs,
  onShowLane,
  onSelect,
}: {
  requestId: string;
  nowMs: number | null;
  clockOffsetMs: number;
  onShowLane: (incidentId: string, integration: string) => void;
  onSelect: (requestId: string) => void;
}) {
  const q = useDelivery(requestId);
  // The attempt shown (and copied as cURL): the last one until another is picked.
  const [attemptIndex, setAttemptIndex] = useState<number | null>(null);
  const exportFile = useDeliveryExport();
  if (q.isPending) return <SkeletonRows rows={6} />;
  if (q.isError)
    return (
      <Alert tone="danger" title={isNotFound(q.error) ? "Delivery not found" : "Could not load the delivery"}>
        {isNotFound(q.error)
          ? `No delivery has the Service-Request-Id ${requestId}: it may belong to another workbench, or the database was reset.`
          : q.error.message}
      </Alert>
    );
  const d = q.data;
  const attempt = d.attempts[attemptIndex ?? d.attempts.length - 1];
  const curl = attempt
    ? buildCurl({ method: d.method, url: attempt.url, headers: attempt.requestHeaders, body: d.body })
    : null;

  return (
    <div className="grid min-w-0 gap-3" data-testid="delivery-detail">
      <DeliveryHeading delivery={d} nowMs={nowMs} />
      <DeliveryActions
        delivery={d}
        curl={curl}
        exporting={exportFile.isPending}
        onExport={(input) => exportFile.mutate(input)}
        onShowLane={() => onShowLane(d.incidentId, d.integration)}
      />
      {exportFile.isError && (
        <Alert tone="danger" title="Export failed">
          {exportFile.error.message}
        </Alert>
      )}
      {d.rewriteNote && (
        <Alert tone="info" title="Rewritten by the capability rules">
          <span data-testid="rewrite-note">{d.rewriteNote}</span>
        </Alert>
      )}
      {d.state === "superseded" && <SupersededNote sent={d.attempts.length > 0} />}
      {d.waitingBehind && <WaitingBehind head={d.waitingBehind} onSelect={onSelect} />}
      <DeliveryFacts delivery={d} nowMs={nowMs} clockOffsetMs={clockOffsetMs} />
      <DeliveryTabs delivery={d} attempt={attempt} onPickAttempt={setAttemptIndex} />
    </div>
  );
}

/** Its state in words, what it is and where it went, and the path it was sent to. */
function DeliveryHeading({ delivery: d, nowMs }: { delivery: DeliveryInFull; nowMs: number | null }) {
  const status = describeDeliveryStatus(d, nowMs);
  return (
    <div className="grid min-w-0 gap-1">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <Badge tone={status.tone} className="max-w-full truncate" title={status.label} data-testid="detail-status">
          {status.label}
        </Badge>
        <span className="text-xs text-slate-600">
          {d.event} → {d.integration}
        </span>
      </div>
      <p className="flex min-w-0 items-start gap-1 font-mono text-sm">
        <span className="min-w-0 break-all">
          {d.method} {d.path}
        </span>
        <CopyButton value={d.path} label="Copy path" />
      </p>
    </div>
  );
}

/** Why a delivery of the old major version was not (or not again) sent after the cutover. */
function SupersededNote({ sent }: { sent: boolean }) {
  return (
    <Alert tone="info" title="Superseded at the cutover">
      <span data-testid="superseded-note">
        {sent ? "Not sent again" : "Never sent"}: the receiver&apos;s accepted /about declaration is of another major
        version, and one major version is sent to an integration at a time (Versioning rule 3). The incident went to it
        anew under that version, as the create-and-track sequence of its current snapshot, followed by the events of
        later changes.
      </span>
    </Alert>
  );
}

/** The lane's unfinished head this event waits for, one click from being selected. */
function WaitingBehind({ head, onSelect }: { head: string; onSelect: (requestId: string) => void }) {
  return (
    <p className="text-sm text-slate-700" data-testid="waiting-behind">
      Waits behind its lane&apos;s head{" "}
      <button
        type="button"
        className="font-mono text-orange-800 underline hover:text-orange-950"
        onClick={() => onSelect(head)}
      >
        {head.slice(0, 8)}
      </button>
      : a lane is sent strictly in order, so this event goes once the head is delivered or expires.
    </p>
  );
}

function DeliveryFacts({
  delivery: d,
  nowMs,
  clockOffsetMs,
}: {
  delivery: DeliveryInFull;
  nowMs: number | null;
  clockOffsetMs: number;
}) {
  const expiry = describeExpiry(d, nowMs);
  const next = describeNextAttempt(d, nowMs);
  return (
    <KeyValueList
      columns={2}
      items={[
        { label: "Service-Request-Id", value: <IdWithCopy id={d.requestId} label="Copy Service-Request-Id" /> },
        { label: "Incident", value: <IdWithCopy id={d.incidentId} label="Copy incident id" /> },
        { label: "Produced", value: <RelativeTime iso={d.producedAt} nowMs={nowMs} /> },
        {
          label: expiry.label,
          value: expiry.countdown ? (
            <Countdown targetIso={d.expiresAt} clockOffsetMs={clockOffsetMs} />
          ) : (
            <RelativeTime iso={d.expiresAt} nowMs={nowMs} />
          ),
        },
        { label: "Next attempt", value: "at" in next ? <RelativeTime iso={next.at} nowMs={nowMs} /> : next.text },
        { label: "Attempts", value: <span className="font-mono text-xs">{summarizeAttempts(d.attempts)}</span> },
        { label: "Change", value: d.change ? `#${d.change.seq} ${d.change.kind}` : `#${d.changeSeq}` },
        { label: "Finished", value: d.finishedAt ? <RelativeTime iso={d.finishedAt} nowMs={nowMs} /> : "—" },
      ]}
    />
  );
}

function IdWithCopy({ id, label }: { id: string; label: string }) {
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span className="min-w-0 truncate font-mono text-xs" title={id}>
        {id}
      </span>
      <CopyButton value={id} label={label} />
    </span>
  );
}
