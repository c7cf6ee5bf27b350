"use client";
// Step 2: any inbound operation of /v1/openapi.json, its body as a form generated from the
// request schema (prefilled with the document's example), sent with the token from step 1.
// The request is shown as sent (and as curl), the response in full. An incident the console
// created is remembered for the next operation's {incidentId} and linked to the inspector.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { JsonView } from "@/app/_components/json/json-view";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { Button } from "@/app/_components/ui/button";
import { CodeBlock } from "@/app/_components/ui/code-block";
import { Field, Input, Select, Textarea } from "@/app/_components/ui/form";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { buildRequest, type ConsoleRequest, toCurl } from "./build-request";
import { type ConsoleOperation, listOperations, type OpenApiDocument } from "./openapi-operations";
import { SchemaField } from "./schema-field";

type Outcome = { request: ConsoleRequest; status: number; headers: Record<string, string>; body: unknown; ms: number };

/** The example, with a fresh requestedIncidentId so "Send" twice creates two incidents unless the user keeps it. */
function initialBody(op: ConsoleOperation): unknown {
  if (!op.body) return undefined;
  const example = structuredClone(op.example ?? {}) as Record<string, unknown>;
  if (op.body.properties?.requestedIncidentId) example.requestedIncidentId = crypto.randomUUID();
  return example;
}

export function OperationRunner({ token }: { token: string | null }) {
  const spec = useQuery({
    queryKey: ["v1-openapi"],
    queryFn: async () => (await (await fetch("/v1/openapi.json")).json()) as OpenApiDocument,
    staleTime: Infinity,
  });
  const operations = useMemo(() => (spec.data ? listOperations(spec.data) : []), [spec.data]);
  const [opId, setOpId] = useState("createIncident");
  const op = operations.find((o) => o.id === opId) ?? operations[0];
  if (spec.isError)
    return (
      <Alert tone="danger" title="Could not load /v1/openapi.json">
        {spec.error.message}
      </Alert>
    );
  if (!op) return <SkeletonRows rows={4} label="Loading the OpenAPI document…" />;
  const tags = [...new Set(operations.map((o) => o.tag))];
  return (
    <div className="grid gap-3">
      <Field id="op-select" label="Operation">
        <Select id="op-select" value={op.id} onChange={(e) => setOpId(e.target.value)}>
          {tags.map((tag) => (
            <optgroup key={tag} label={tag}>
              {operations
                .filter((o) => o.tag === tag)
                .map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.method} {o.path} — {o.summary}
                  </option>
                ))}
            </optgroup>
          ))}
        </Select>
      </Field>
      <OperationForm key={op.id} op={op} token={token} />
    </div>
  );
}

const lastIncident = { id: "" }; // remembered across operation switches (module state is fine: one console per tab)

function OperationForm({ op, token }: { op: ConsoleOperation; token: string | null }) {
  const [pathValues, setPathValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(op.pathParams.map((p) => [p.name, p.name === "incidentId" ? lastIncident.id : ""])),
  );
  const [headerValues, setHeaderValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState<unknown>(() => initialBody(op));
  const [rawMode, setRawMode] = useState(false);
  const [rawError, setRawError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const request = buildRequest({
    origin: typeof window === "undefined" ? "" : window.location.origin,
    operation: op,
    pathValues,
    headerValues,
    body,
    token,
  });

  async function send() {
    setBusy(true);
    const t0 = performance.now();
    try {
      const res = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body ?? undefined,
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON: shown as text */
      }
      const id = parsed && typeof parsed === "object" && "incidentId" in parsed ? String(parsed.incidentId) : null;
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
  const createdId =
    outcome && outcome.body && typeof outcome.body === "object" && "incidentId" in outcome.body
      ? String(outcome.body.incidentId)
      : pathValues.incidentId;

  return (
    <div className="grid gap-3" data-testid="operation-form">
      <p className="text-sm text-slate-700">{op.description}</p>
      <p className="flex flex-wrap gap-1 text-xs">
        Scopes:{" "}
        {op.scopes.map((s) => (
          <Badge key={s} tone="neutral">
            {s}
          </Badge>
        ))}
      </p>
      {!token && <Alert tone="warning">No token yet: the request goes without Authorization (expect 401).</Alert>}
      {[...op.pathParams, ...op.headerParams].length > 0 && (
        <div className="grid gap-3 md:grid-cols-2">
          {op.pathParams.map((p) => (
            <Field key={p.name} id={`p-${p.name}`} label={`{${p.name}}`}>
              <Input
                id={`p-${p.name}`}
                className="font-mono text-xs"
                value={pathValues[p.name] ?? ""}
                onChange={(e) => setPathValues({ ...pathValues, [p.name]: e.target.value })}
              />
            </Field>
          ))}
          {op.headerParams.map((p) => (
            <Field key={p.name} id={`h-${p.name}`} label={`${p.name} header (optional)`}>
              <Input
                id={`h-${p.name}`}
                className="font-mono text-xs"
                value={headerValues[p.name] ?? ""}
                onChange={(e) => setHeaderValues({ ...headerValues, [p.name]: e.target.value })}
              />
            </Field>
          ))}
        </div>
      )}
      {op.body && (
        <div className="grid gap-2">
          <div className="flex items-center gap-2">
            <span className="text-xs font-semibold text-slate-700">Body</span>
            <Button size="sm" variant="ghost" aria-pressed={rawMode} onClick={() => setRawMode(!rawMode)}>
              {rawMode ? "Edit as form" : "Edit as JSON"}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setBody(initialBody(op))}>
              Reset to example
            </Button>
          </div>
          {rawMode ? (
            <Field id="raw-body" label="JSON body" error={rawError ?? undefined}>
              <Textarea
                id="raw-body"
                className="min-h-48"
                defaultValue={JSON.stringify(body ?? {}, null, 2)}
                onChange={(e) => {
                  try {
                    setBody(JSON.parse(e.target.value));
                    setRawError(null);
                  } catch (err) {
                    setRawError((err as Error).message);
                  }
                }}
              />
            </Field>
          ) : (
            <SchemaField name="body" schema={op.body} value={body} onChange={setBody} required />
          )}
        </div>
      )}
      <div className="grid gap-2">
        <p className="text-xs font-semibold text-slate-700">Request</p>
        <CodeBlock code={toCurl(request)} label="Copy as curl" maxHeight="14rem" />
        <div>
          <Button onClick={() => void send()} disabled={busy || Boolean(rawError)}>
            Send {op.method} {op.path.replace("/v1", "")}
          </Button>
        </div>
      </div>
      {outcome && (
        <div className="grid gap-2" data-testid="operation-response">
          <p className="flex items-center gap-2 text-sm">
            <Badge tone={outcome.status < 300 ? "success" : outcome.status < 500 ? "warning" : "danger"}>
              {outcome.status}
            </Badge>
            <span className="text-slate-600">
              {outcome.ms} ms · {outcome.headers["content-type"] ?? "no content type"}
            </span>
            {createdId && (
              <span className="ml-auto flex gap-3 text-sm">
                <Link className="underline" href={`/deliveries?incident=${createdId}`}>
                  Deliveries of this incident
                </Link>
                <Link className="underline" href={`/reference-receivers?incident=${createdId}`}>
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
      )}
    </div>
  );
}
