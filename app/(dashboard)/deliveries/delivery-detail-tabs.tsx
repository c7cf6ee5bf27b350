"use client";
// The selected delivery's tabs: the request as sent on the attempt shown, that attempt's response,
// the incident's snapshot against the one before (what changed), and every attempt (a click shows it).
import { JsonDiffView } from "@/app/_components/json/json-diff-view";
import { JsonView } from "@/app/_components/json/json-view";
import { CopyButton } from "@/app/_components/ui/copy-button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/app/_components/ui/tabs";
import { AttemptTrace } from "./attempt-trace";
import { describeUnsent } from "./describe-delivery-timing";
import type { DeliveryAttempt, DeliveryInFull } from "./use-delivery";
import { Badge } from "@/app/_components/ui/badge";

export function DeliveryTabs({
  delivery: d,
  attempt,
  onPickAttempt,
}: {
  delivery: DeliveryInFull;
  /** The attempt shown; undefined while none was made. */
  attempt: DeliveryAttempt | undefined;
  onPickAttempt: (index: number) => void;
}) {
  return (
    <Tabs defaultValue="request">
      <TabsList aria-label="Delivery details" className="flex-wrap">
        <TabsTrigger value="request">Request</TabsTrigger>
        <TabsTrigger value="response">Response</TabsTrigger>
        <TabsTrigger value="diff">Snapshot diff</TabsTrigger>
        <TabsTrigger value="attempts">Attempts ({d.attempts.length})</TabsTrigger>
      </TabsList>
      <TabsContent value="request" className="grid min-w-0 gap-2">
        <RequestSent delivery={d} attempt={attempt} />
      </TabsContent>
      <TabsContent value="response" className="grid min-w-0 gap-2">
        <ResponseReceived attempt={attempt} />
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
        <AttemptList attempts={d.attempts} shown={attempt} onPick={onPickAttempt} />
      </TabsContent>
    </Tabs>
  );
}

function RequestSent({ delivery: d, attempt }: { delivery: DeliveryInFull; attempt: DeliveryAttempt | undefined }) {
  const body = d.body === null ? null : JSON.stringify(d.body, null, 2);
  return (
    <>
      {attempt ? (
        <>
          {isViaListener(attempt) && <ViaListener />}
          <HeaderTable title={`${d.method} ${attempt.url}`} copy={attempt.url} headers={attempt.requestHeaders} />
          <AttemptTrace attempt={attempt} />
        </>
      ) : (
        <p className="text-sm text-slate-600">{describeUnsent(d)}</p>
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
    </>
  );
}

function ResponseReceived({ attempt }: { attempt: DeliveryAttempt | undefined }) {
  if (!attempt) return <p className="text-sm text-slate-600">No response: never sent.</p>;
  return (
    <>
      <p className="font-mono text-sm break-words" data-testid="response-status">
        {attempt.status ?? "no response"}
        {attempt.error ? ` — ${attempt.error}` : ""} · {attempt.durationMs} ms
      </p>
      {attempt.responseHeaders && <HeaderTable title="Response headers" headers={attempt.responseHeaders} />}
      <ResponseBody body={attempt.responseBody} />
    </>
  );
}

function AttemptList({
  attempts,
  shown,
  onPick,
}: {
  attempts: DeliveryAttempt[];
  shown: DeliveryAttempt | undefined;
  onPick: (index: number) => void;
}) {
  return (
    <>
      {attempts.length === 0 && <p className="text-sm text-slate-600">No attempt yet.</p>}
      <ol className="grid gap-1 text-sm" aria-label="Attempts">
        {attempts.map((a, i) => (
          <li key={a.attempt}>
            <button
              type="button"
              onClick={() => onPick(i)}
              aria-pressed={shown === a}
              title={a.at}
              className="w-full rounded px-2 py-1 text-left font-mono text-xs break-words hover:bg-slate-100 aria-pressed:bg-orange-50"
            >
              #{a.attempt} {a.at.slice(11, 23)} {isViaListener(a) ? "via listener " : ""}→ {a.status ?? "—"}
              {a.error ? ` (${a.error})` : ""} · {a.durationMs} ms
            </button>
          </li>
        ))}
      </ol>
    </>
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

/** Sent through an attached `workbench listen` (docs/listen.md): recorded as "listen://KEY/…". */
const isViaListener = (a: DeliveryAttempt) => a.url.startsWith("listen://");

function ViaListener() {
  return (
    <p className="text-xs text-slate-700" data-testid="via-listener">
      <Badge tone="brand" className="mr-1.5">
        via listener
      </Badge>
      sent through the integration&apos;s attached <code>workbench listen</code>, which forwarded it to its receiver and
      returned the answer recorded here
    </p>
  );
}
