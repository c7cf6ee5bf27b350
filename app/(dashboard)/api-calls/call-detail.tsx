"use client";
// The selected call whole (docs/api-calls.md): what was asked (method, path, query, headers, body),
// what was answered, what the token said instead of the token, the advice with the rule, what was
// seen and the fix, and what the call caused (its changes, their deliveries, the trace id).
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { JsonView } from "@/app/_components/json/json-view";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { CopyButton } from "@/app/_components/ui/copy-button";
import { KeyValueList } from "@/app/_components/ui/key-value";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/app/_components/ui/tabs";
import { useTRPC } from "@/app/_trpc/react";
import type { CallDetail as Detail } from "@/server/client-calls/list-calls";
import { buildCallCurl } from "./build-call-curl";
import { describeStatus, statusTone } from "./call-row";

export function CallDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const call = useQuery(trpc.calls.get.queryOptions({ id }));
  if (call.isPending) return <SkeletonRows rows={6} />;
  if (call.isError)
    return (
      <Alert tone="danger" title="Could not load the call">
        {call.error.message}
      </Alert>
    );
  const c = call.data;
  return (
    <div className="grid min-w-0 gap-3" data-testid="call-detail">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <Badge tone={statusTone(c.status)}>{describeStatus(c)}</Badge>
        <span className="min-w-0 break-all font-mono text-sm">{c.operation}</span>
      </div>
      <p className="text-xs text-slate-600">
        {c.receivedAt.replace("T", " ").slice(0, 23)} UTC · {c.durationMs} ms · {c.clientId ?? "no client"}
        {c.console ? " · sent by the Partner console" : ""}
      </p>
      {c.fault && (
        <Alert tone="warning" title={`An injected fault answered: ${c.fault}`}>
          The platform never saw this call: nothing it asked was done.
        </Alert>
      )}
      <Tabs defaultValue={c.advice.length ? "advice" : "request"}>
        <TabsList aria-label="Call details" className="flex-wrap">
          <TabsTrigger value="advice">Advice ({c.advice.length})</TabsTrigger>
          <TabsTrigger value="request">Request</TabsTrigger>
          <TabsTrigger value="answer">Answer</TabsTrigger>
          <TabsTrigger value="token">Token</TabsTrigger>
          <TabsTrigger value="caused">Caused</TabsTrigger>
        </TabsList>
        <TabsContent value="advice" className="grid gap-2">
          <AdviceList call={c} />
        </TabsContent>
        <TabsContent value="request" className="grid min-w-0 gap-2">
          <Request call={c} />
        </TabsContent>
        <TabsContent value="answer" className="grid min-w-0 gap-2">
          <HeaderTable title={`${describeStatus(c)} · ${c.durationMs} ms`} headers={c.response.headers} />
          <Body
            text={c.responseBody}
            cut={c.response.bodyCut}
            bytes={c.response.bodyBytes}
            bodies={c.bodies}
            label="answer"
          />
        </TabsContent>
        <TabsContent value="token">
          <TokenFacts call={c} />
        </TabsContent>
        <TabsContent value="caused">
          <Caused call={c} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function AdviceList({ call }: { call: Detail }) {
  if (call.advice.length === 0)
    return (
      <p className="text-sm text-slate-600">
        No advice: this call breaks none of the spec&apos;s rules the workbench checks.
      </p>
    );
  return (
    <ul className="grid gap-2">
      {call.advice.map((a, i) => (
        <li key={i} className="rounded-md border border-slate-200 p-3 text-sm" data-testid="advice">
          <p className="flex flex-wrap items-center gap-2 font-semibold">
            <Badge tone={a.severity === "error" ? "danger" : "warning"}>{a.severity}</Badge>
            {a.title}
          </p>
          <p className="mt-1 text-xs text-slate-600">{a.spec}</p>
          <p className="mt-2">
            <span className="font-medium">Seen: </span>
            {a.seen}
          </p>
          <p className="mt-1">
            <span className="font-medium">Fix: </span>
            {a.fix}
          </p>
        </li>
      ))}
    </ul>
  );
}

function Request({ call }: { call: Detail }) {
  const curl = buildCallCurl(typeof window === "undefined" ? "" : window.location.origin, call);
  const query = Object.entries(call.request.query);
  return (
    <>
      <div className="flex flex-wrap items-center justify-end gap-2">
        {call.bodies && (
          <CopyButton
            value={curl}
            label="Copy as cURL"
            showLabel
            title="The same request as a curl command, with $TOKEN (or $CLIENT_SECRET) where the workbench kept no secret"
          />
        )}
      </div>
      <HeaderTable title={`${call.method} ${call.path}`} headers={call.request.headers} />
      {query.length > 0 && <HeaderTable title="Query" headers={Object.fromEntries(query)} />}
      {call.request.signIn && (
        <KeyValueList
          items={[
            { label: "Sign-in token", value: call.request.signIn.tokenPresent ? "given (never kept)" : "missing" },
            { label: "Encoded twice (%25)", value: call.request.signIn.encodedTwice ? "yes" : "no" },
            { label: "returnUrl", value: call.request.signIn.returnUrlGiven ? "given (never kept)" : "missing" },
          ]}
          columns={3}
        />
      )}
      {call.surface === "token" && call.requestBody !== null && call.bodies ? (
        <HeaderTable
          title={`Form (${call.request.bodyBytes} bytes; secrets never kept)`}
          headers={Object.fromEntries(new URLSearchParams(call.requestBody))}
        />
      ) : (
        <Body
          text={call.requestBody}
          cut={call.request.bodyCut}
          bytes={call.request.bodyBytes}
          bodies={call.bodies}
          label="request"
        />
      )}
    </>
  );
}

function Body({
  text,
  cut,
  bytes,
  bodies,
  label,
}: {
  text: string | null;
  cut: boolean;
  bytes: number;
  bodies: boolean;
  label: string;
}) {
  if (!bodies)
    return <p className="text-sm text-slate-600">Bodies are shown to integrators and admins ({bytes} bytes).</p>;
  if (text === null) return <p className="text-sm text-slate-600">No {label} body.</p>;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return (
    <div className="grid min-w-0 gap-1">
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs text-slate-600">
          Body ({bytes} bytes{cut ? ", cut at 64 KiB" : ""})
        </span>
        <CopyButton value={text} label={`Copy ${label} body`} />
      </div>
      {json === undefined ? (
        <pre className="max-h-96 overflow-auto rounded-md bg-slate-50 p-2 font-mono text-xs break-all whitespace-pre-wrap">
          {text}
        </pre>
      ) : (
        <JsonView value={json} expandDepth={3} maxHeight="24rem" />
      )}
    </div>
  );
}

function TokenFacts({ call }: { call: Detail }) {
  const t = call.token;
  if (!t)
    return (
      <p className="text-sm text-slate-600">No access token was sent{call.surface === "token" ? " or issued" : ""}.</p>
    );
  const life =
    t.expiresInS === null
      ? "—"
      : t.expiresInS <= 0
        ? `expired ${-t.expiresInS} s before the call`
        : `${t.expiresInS} s left at the call`;
  return (
    <KeyValueList
      columns={2}
      items={[
        { label: t.issued ? "Issued to" : "Client", value: t.clientId, mono: true },
        { label: "Expires", value: `${t.expiresAt ?? "—"} (${life})` },
        { label: "Agency context", value: t.agencyContext, mono: true },
        { label: "User", value: t.username, mono: true },
        { label: "Scopes", value: t.scopes.join(" "), mono: true },
        { label: "Audience", value: t.aud.join(" "), mono: true },
        { label: "Token digest", value: call.tokenDigest, mono: true },
        { label: "The token itself", value: "never kept: the digest tells a reused token from a new one" },
      ]}
    />
  );
}

function Caused({ call }: { call: Detail }) {
  return (
    <div className="grid gap-3 text-sm">
      {call.incidentId ? (
        <p>
          Incident{" "}
          <Link className="font-mono text-orange-800 underline" href={`/incidents/${call.incidentId}`}>
            {call.incidentId}
          </Link>
        </p>
      ) : (
        <p className="text-slate-600">No incident.</p>
      )}
      {call.changes.length > 0 ? (
        <ul className="grid gap-1" aria-label="Changes recorded">
          {call.changes.map((ch) => (
            <li key={ch.seq} className="font-mono text-xs">
              change #{ch.seq} · {ch.kind}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-600">
          No change recorded{call.status >= 400 || call.fault ? ": the call was refused" : ""}.
        </p>
      )}
      {call.deliveries.length > 0 && (
        <p>
          {call.deliveries.length} deliveries planned (
          {[...new Set(call.deliveries.map((d) => d.integrationKey))].join(", ")}):{" "}
          <Link className="text-orange-800 underline" href={`/deliveries?incident=${call.incidentId}`}>
            open them on Deliveries
          </Link>
        </p>
      )}
      {call.traceId && <p className="font-mono text-xs">trace {call.traceId}</p>}
    </div>
  );
}

function HeaderTable({ title, headers }: { title: string; headers: Record<string, string> }) {
  return (
    <div className="min-w-0 rounded-md border border-slate-200">
      <p className="border-b border-slate-200 bg-slate-50 px-2 py-1 font-mono text-xs break-all">{title}</p>
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
