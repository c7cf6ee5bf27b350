"use client";
// One delivery in full: its state in words that say why (and, when the capability rules changed the
// event, why), what was sent (headers with the token redacted, pretty JSON), what came back on each
// attempt, and what changed in the incident. Actions: copy as cURL, resend this delivery (a replay
// of its request, outside the lane), resend the incident (spec Delivery rule 5), export.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { JsonDiffView } from "@/app/_components/json/json-diff-view";
import { JsonView } from "@/app/_components/json/json-view";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { CopyButton } from "@/app/_components/ui/copy-button";
import { Countdown } from "@/app/_components/ui/countdown";
import { KeyValueList } from "@/app/_components/ui/key-value";
import { RelativeTime } from "@/app/_components/ui/relative-time";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/app/_components/ui/tabs";
import { useTRPC } from "@/app/_trpc/react";
import { describeDeliveryStatus, summarizeAttempts } from "@/server/webhooks/admin/describe-delivery-status";
import { exportFileName, type TExportDeliveriesInput } from "@/server/webhooks/admin/export-file-name";
import { buildCurl } from "./build-curl";
import { DeliveryActions } from "./delivery-actions";

/** Saves a JSON document as a file through the browser's download. */
function downloadJson(fileName: string, value: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: fileName });
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

const isNotFound = (e: unknown) => (e as { data?: { code?: string } } | null)?.data?.code === "NOT_FOUND";

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
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const q = useQuery({
    ...trpc.deliveries.get.queryOptions({ requestId }),
    // An unknown id is an answer, not a hiccup: no retries, no polling.
    retry: (n, e) => !isNotFound(e) && n < 2,
    refetchInterval: (s) =>
      s.state.error || (s.state.data && ["delivered", "expired", "superseded"].includes(s.state.data.state))
        ? false
        : 1_000,
  });
  const [attemptIndex, setAttemptIndex] = useState<number | null>(null);
  const exportFile = useMutation({
    mutationFn: async (input: TExportDeliveriesInput) => {
      const file = await queryClient.fetchQuery({ ...trpc.deliveries.export.queryOptions(input), staleTime: 0 });
      downloadJson(exportFileName(input), file);
      return file.deliveries.length;
    },
  });
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
  const status = describeDeliveryStatus(d, nowMs);
  const open = d.state === "pending" || d.state === "delivering";
  const curl = attempt
    ? buildCurl({ method: d.method, url: attempt.url, headers: attempt.requestHeaders, body: d.body })
    : null;
  const body = d.body === null ? null : JSON.stringify(d.body, null, 2);

  return (
    <div className="grid min-w-0 gap-3" data-testid="delivery-detail">
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
      {d.state === "superseded" && (
        <Alert tone="info" title="Superseded at the cutover">
          <span data-testid="superseded-note">
            {d.attempts.length ? "Not sent again" : "Never sent"}: the receiver&apos;s accepted /about declaration is of
            another major version, and one major version is sent to an integration at a time (Versioning rule 3). The
            incident went to it anew under that version, as the create-and-track sequence of its current snapshot,
            followed by the events of later changes.
          </span>
        </Alert>
      )}
      {d.waitingBehind && (
        <p className="text-sm text-slate-700" data-testid="waiting-behind">
          Waits behind its lane&apos;s head{" "}
          <button
            type="button"
            className="font-mono text-orange-800 underline hover:text-orange-950"
            onClick={() => onSelect(d.waitingBehind!)}
          >
            {d.waitingBehind.slice(0, 8)}
          </button>
          : a lane is sent strictly in order, so this event goes once the head is delivered or expires.
        </p>
      )}
      <KeyValueList
        columns={2}
        items={[
          { label: "Service-Request-Id", value: <IdWithCopy id={d.requestId} label="Copy Service-Request-Id" /> },
          { label: "Incident", value: <IdWithCopy id={d.incidentId} label="Copy incident id" /> },
          { label: "Produced", value: <RelativeTime iso={d.producedAt} nowMs={nowMs} /> },
          {
            label: open ? "Expires" : "Expiry (1 h window)",
            value:
              open && nowMs !== null && Date.parse(d.expiresAt) > nowMs ? (
                <Countdown targetIso={d.expiresAt} clockOffsetMs={clockOffsetMs} />
              ) : (
                <RelativeTime iso={d.expiresAt} nowMs={nowMs} />
              ),
          },
          {
            label: "Next attempt",
            value:
              d.state === "pending" && !d.waitingBehind && d.nextAttemptAt && nowMs !== null ? (
                Date.parse(d.expiresAt) <= nowMs ? (
                  "none: past its hour, expires when claimed"
                ) : (
                  <RelativeTime iso={d.nextAttemptAt} nowMs={nowMs} />
                )
              ) : d.state === "pending" && d.waitingBehind ? (
                "after the head"
              ) : (
                "none"
              ),
          },
          { label: "Attempts", value: <span className="font-mono text-xs">{summarizeAttempts(d.attempts)}</span> },
          { label: "Change", value: d.change ? `#${d.change.seq} ${d.change.kind}` : `#${d.changeSeq}` },
          { label: "Finished", value: d.finishedAt ? <RelativeTime iso={d.finishedAt} nowMs={nowMs} /> : "—" },
        ]}
      />
      <Tabs defaultValue="request">
        <TabsList aria-label="Delivery details" className="flex-wrap">
          <TabsTrigger value="request">Request</TabsTrigger>
          <TabsTrigger value="response">Response</TabsTrigger>
          <TabsTrigger value="diff">Snapshot diff</TabsTrigger>
          <TabsTrigger value="attempts">Attempts ({d.attempts.length})</TabsTrigger>
        </TabsList>
        <TabsContent value="request" className="grid min-w-0 gap-2">
          {attempt ? (
            <HeaderTable title={`${d.method} ${attempt.url}`} copy={attempt.url} headers={attempt.requestHeaders} />
          ) : (
            <p className="text-sm text-slate-600">
              {d.state === "expired"
                ? "Never sent: it expired one hour after it was produced, before its turn came."
                : d.state === "superseded"
                  ? "Never sent: the receiver cut over to another major version before its turn came."
                  : d.waitingBehind
                    ? "Not sent yet: it waits behind its lane's head."
                    : "Not sent yet: its first attempt is queued."}
            </p>
          )}
          {body === null ? (
            <p className="text-sm text-slate-600">No body.</p>
          ) : (
            <div className="grid min-w-0 gap-1">
              <div className="flex items-center justify-between">
                <span className="text-xs text-slate-600">Body</span>
                <CopyButton value={body} label="Copy request body" />
              </div>
              <JsonView value={d.body} expandDepth={3} maxHeight="24rem" />
            </div>
          )}
        </TabsContent>
        <TabsContent value="response" className="grid min-w-0 gap-2">
          {!attempt ? (
            <p className="text-sm text-slate-600">No response: never sent.</p>
          ) : (
            <>
              <p className="font-mono text-sm break-words" data-testid="response-status">
                {attempt.status ?? "no response"}
                {attempt.error ? ` — ${attempt.error}` : ""} · {attempt.durationMs} ms
              </p>
              {attempt.responseHeaders && <HeaderTable title="Response headers" headers={attempt.responseHeaders} />}
              <ResponseBody body={attempt.responseBody} />
            </>
          )}
        </TabsContent>
        <TabsContent value="diff">
          {d.snapshot ? (
            <JsonDiffView value={d.snapshot} previous={d.previousSnapshot ?? {}} maxHeight="28rem" />
          ) : (
            <p className="text-sm text-slate-600">
              The incident&apos;s change #{d.changeSeq} is not recorded (a synthetic or purged delivery).
            </p>
          )}
        </TabsContent>
        <TabsContent value="attempts">
          {d.attempts.length === 0 && <p className="text-sm text-slate-600">No attempt yet.</p>}
          <ol className="grid gap-1 text-sm" aria-label="Attempts">
            {d.attempts.map((a, i) => (
              <li key={a.attempt}>
                <button
                  type="button"
                  onClick={() => setAttemptIndex(i)}
                  aria-pressed={attempt === a}
                  title={a.at}
                  className="w-full rounded px-2 py-1 text-left font-mono text-xs break-words hover:bg-slate-100 aria-pressed:bg-orange-50"
                >
                  #{a.attempt} {a.at.slice(11, 23)} → {a.status ?? "—"}
                  {a.error ? ` (${a.error})` : ""} · {a.durationMs} ms
                </button>
              </li>
            ))}
          </ol>
        </TabsContent>
      </Tabs>
    </div>
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

function HeaderTable({ title, copy, headers }: { title: string; copy?: string; headers: Record<string, string> }) {
  return (
    <div className="min-w-0 rounded-md border border-slate-200">
      <p className="flex min-w-0 items-start gap-1 border-b border-slate-200 bg-slate-50 px-2 py-1 font-mono text-xs">
        <span className="min-w-0 flex-1 break-all">{title}</span>
        {copy && <CopyButton value={copy} label="Copy URL" />}
      </p>
      <dl className="grid grid-cols-[minmax(6rem,auto)_minmax(0,1fr)] gap-x-3 px-2 py-1 font-mono text-xs">
        {Object.entries(headers).map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-600">{k}</dt>
            <dd className="min-w-0 break-all">{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function ResponseBody({ body }: { body: string | null }) {
  if (!body) return <p className="text-sm text-slate-600">Empty body.</p>;
  const copy = (
    <div className="flex items-center justify-between">
      <span className="text-xs text-slate-600">Response body</span>
      <CopyButton value={body} label="Copy response body" />
    </div>
  );
  try {
    return (
      <div className="grid min-w-0 gap-1">
        {copy}
        <JsonView value={JSON.parse(body)} maxHeight="16rem" />
      </div>
    );
  } catch {
    return (
      <div className="grid min-w-0 gap-1">
        {copy}
        <pre className="max-h-64 overflow-auto [contain:inline-size] rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap break-all">
          {body}
        </pre>
      </div>
    );
  }
}
