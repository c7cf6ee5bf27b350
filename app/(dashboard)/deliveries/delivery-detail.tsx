"use client";
// One delivery in full: what was sent (headers with the token redacted, pretty JSON), what came
// back on each attempt, and what changed in the incident (this change's snapshot against the one
// before it). Resend re-plans the incident's create-and-track sequence (spec Delivery rule 5);
// Export saves the delivery, or its lane, as a self-contained JSON file for a bug report.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { JsonDiffView } from "@/app/_components/json/json-diff-view";
import { JsonView } from "@/app/_components/json/json-view";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { Button } from "@/app/_components/ui/button";
import { Countdown } from "@/app/_components/ui/countdown";
import { KeyValueList } from "@/app/_components/ui/key-value";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/app/_components/ui/tabs";
import { useTRPC } from "@/app/_trpc/react";
import { STATE_TONE } from "./delivery-row";
import { exportFileName, type TExportDeliveriesInput } from "@/server/webhooks/admin/export-file-name";

/** Saves a JSON document as a file through the browser's download. */
function downloadJson(fileName: string, value: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: fileName });
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

export function DeliveryDetail({
  requestId,
  clockOffsetMs,
  onShowLane,
}: {
  requestId: string;
  clockOffsetMs: number;
  onShowLane: (incidentId: string, integration: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const q = useQuery({
    ...trpc.deliveries.get.queryOptions({ requestId }),
    refetchInterval: (s) => (s.state.data && ["delivered", "expired"].includes(s.state.data.state) ? false : 1_000),
  });
  const resend = useMutation(
    trpc.deliveries.resend.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.deliveries.inspect.queryKey() }),
    }),
  );
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
      <Alert tone="danger" title="Could not load the delivery">
        {q.error.message}
      </Alert>
    );
  const d = q.data;
  const attempt = d.attempts[attemptIndex ?? d.attempts.length - 1];
  const open = d.state === "pending" || d.state === "delivering";

  return (
    <div className="grid gap-3" data-testid="delivery-detail">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={STATE_TONE[d.state]}>{d.state}</Badge>
        <span className="font-mono text-sm">
          {d.method} {d.path}
        </span>
        <span className="ml-auto flex gap-2">
          <Button size="sm" variant="secondary" onClick={() => onShowLane(d.incidentId, d.integration)}>
            Show lane
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={exportFile.isPending}
            title="This delivery as a JSON file: request, every attempt's response, timing"
            onClick={() => exportFile.mutate({ requestId: d.requestId })}
          >
            Export
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={exportFile.isPending}
            title="Every delivery of this incident to this integration, in lane order, as one JSON file"
            onClick={() => exportFile.mutate({ incidentId: d.incidentId, integration: d.integration })}
          >
            Export lane
          </Button>
          <Button
            size="sm"
            disabled={resend.isPending}
            onClick={() => resend.mutate({ incidentId: d.incidentId, integration: d.integration })}
          >
            Resend incident
          </Button>
        </span>
      </div>
      {resend.isSuccess && (
        <Alert tone="success">Re-planned {resend.data.planned.length} event(s) behind the lane's queue.</Alert>
      )}
      {exportFile.isError && (
        <Alert tone="danger" title="Export failed">
          {exportFile.error.message}
        </Alert>
      )}
      {resend.isError && (
        <Alert tone="danger" title="Resend refused">
          {resend.error.message}
        </Alert>
      )}
      <KeyValueList
        columns={2}
        items={[
          { label: "Event", value: d.event },
          { label: "Integration", value: d.integration },
          { label: "Service-Request-Id", value: d.requestId, mono: true },
          { label: "Incident", value: d.incidentId, mono: true },
          { label: "Produced", value: d.producedAt, mono: true },
          {
            label: open ? "Expires in" : "Expiry",
            value: open ? <Countdown targetIso={d.expiresAt} clockOffsetMs={clockOffsetMs} /> : d.expiresAt,
            mono: true,
          },
          { label: "Next attempt", value: d.nextAttemptAt, mono: true },
          { label: "Change", value: d.change ? `#${d.change.seq} ${d.change.kind}` : `#${d.changeSeq}` },
        ]}
      />
      <Tabs defaultValue="request">
        <TabsList aria-label="Delivery details">
          <TabsTrigger value="request">Request</TabsTrigger>
          <TabsTrigger value="response">Response</TabsTrigger>
          <TabsTrigger value="diff">Snapshot diff</TabsTrigger>
          <TabsTrigger value="attempts">Attempts ({d.attempts.length})</TabsTrigger>
        </TabsList>
        <TabsContent value="request" className="grid gap-2">
          {attempt ? (
            <HeaderTable title={`${d.method} ${attempt.url}`} headers={attempt.requestHeaders} />
          ) : (
            <p className="text-sm text-slate-600">Not attempted yet.</p>
          )}
          {d.body === null ? (
            <p className="text-sm text-slate-600">No body.</p>
          ) : (
            <JsonView value={d.body} expandDepth={3} maxHeight="24rem" />
          )}
        </TabsContent>
        <TabsContent value="response" className="grid gap-2">
          {!attempt ? (
            <p className="text-sm text-slate-600">No response yet.</p>
          ) : (
            <>
              <p className="font-mono text-sm" data-testid="response-status">
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
              The incident's change #{d.changeSeq} is not recorded (a synthetic or purged delivery).
            </p>
          )}
        </TabsContent>
        <TabsContent value="attempts">
          <ol className="grid gap-1 text-sm" aria-label="Attempts">
            {d.attempts.map((a, i) => (
              <li key={a.attempt}>
                <button
                  type="button"
                  onClick={() => setAttemptIndex(i)}
                  aria-pressed={attempt === a}
                  className="w-full rounded px-2 py-1 text-left font-mono text-xs hover:bg-slate-100 aria-pressed:bg-orange-50"
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

function HeaderTable({ title, headers }: { title: string; headers: Record<string, string> }) {
  return (
    <div className="rounded-md border border-slate-200">
      <p className="truncate border-b border-slate-200 bg-slate-50 px-2 py-1 font-mono text-xs">{title}</p>
      <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-3 px-2 py-1 font-mono text-xs">
        {Object.entries(headers).map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-600">{k}</dt>
            <dd className="break-all">{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function ResponseBody({ body }: { body: string | null }) {
  if (!body) return <p className="text-sm text-slate-600">Empty body.</p>;
  try {
    return <JsonView value={JSON.parse(body)} maxHeight="16rem" />;
  } catch {
    return <pre className="max-h-64 overflow-auto [contain:inline-size] rounded bg-slate-50 p-2 text-xs">{body}</pre>;
  }
}
