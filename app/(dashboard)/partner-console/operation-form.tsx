"use client";
// One operation's form: its path and header parameters, its body as a form generated from the request
// schema (or as raw JSON), the request as it will be sent (and as curl), and the response once sent.
import { useState } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { Button } from "@/app/_components/ui/button";
import { CodeBlock } from "@/app/_components/ui/code-block";
import { Field, Input, Textarea } from "@/app/_components/ui/form";
import { buildRequest, type ConsoleRequest, toCurl } from "./build-request";
import { initialBody } from "./initial-body";
import type { ConsoleOperation, JsonSchema } from "./openapi-operations";
import { OperationResponse } from "./operation-response";
import { incidentIdIn } from "./read-console-response";
import { SchemaField } from "./schema-field";
import { rememberedIncidentId, useSendOperation } from "./use-send-operation";

type Values = Record<string, string>;

export function OperationForm({ op, token }: { op: ConsoleOperation; token: string | null }) {
  const [pathValues, setPathValues] = useState<Values>(() =>
    Object.fromEntries(op.pathParams.map((p) => [p.name, p.name === "incidentId" ? rememberedIncidentId() : ""])),
  );
  const [headerValues, setHeaderValues] = useState<Values>({});
  const [body, setBody] = useState<unknown>(() => initialBody(op));
  const [rawError, setRawError] = useState<string | null>(null);
  const { outcome, busy, send } = useSendOperation();
  const request = buildRequest({
    origin: typeof window === "undefined" ? "" : window.location.origin,
    operation: op,
    pathValues,
    headerValues,
    body,
    token,
  });

  return (
    <div className="grid gap-3" data-testid="operation-form">
      <OperationIntro op={op} token={token} />
      {[...op.pathParams, ...op.headerParams].length > 0 && (
        <ParameterFields
          op={op}
          pathValues={pathValues}
          headerValues={headerValues}
          onPathValues={setPathValues}
          onHeaderValues={setHeaderValues}
        />
      )}
      {op.body && (
        <BodyEditor
          schema={op.body}
          body={body}
          rawError={rawError}
          onBody={setBody}
          onRawError={setRawError}
          onReset={() => setBody(initialBody(op))}
        />
      )}
      <RequestPreview
        op={op}
        request={request}
        disabled={busy || Boolean(rawError)}
        onSend={() => void send(request)}
      />
      {outcome && (
        <OperationResponse outcome={outcome} incidentId={incidentIdIn(outcome.body) ?? pathValues.incidentId} />
      )}
    </div>
  );
}

/** What the operation does, the scopes it needs, and a warning while there is no token. */
function OperationIntro({ op, token }: { op: ConsoleOperation; token: string | null }) {
  return (
    <>
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
    </>
  );
}

function ParameterFields({
  op,
  pathValues,
  headerValues,
  onPathValues,
  onHeaderValues,
}: {
  op: ConsoleOperation;
  pathValues: Values;
  headerValues: Values;
  onPathValues: (values: Values) => void;
  onHeaderValues: (values: Values) => void;
}) {
  return (
    <div className="grid gap-3 md:grid-cols-2">
      {op.pathParams.map((p) => (
        <Field key={p.name} id={`p-${p.name}`} label={`{${p.name}}`}>
          <Input
            id={`p-${p.name}`}
            className="font-mono text-xs"
            value={pathValues[p.name] ?? ""}
            onChange={(e) => onPathValues({ ...pathValues, [p.name]: e.target.value })}
          />
        </Field>
      ))}
      {op.headerParams.map((p) => (
        <Field key={p.name} id={`h-${p.name}`} label={`${p.name} header (optional)`}>
          <Input
            id={`h-${p.name}`}
            className="font-mono text-xs"
            value={headerValues[p.name] ?? ""}
            onChange={(e) => onHeaderValues({ ...headerValues, [p.name]: e.target.value })}
          />
        </Field>
      ))}
    </div>
  );
}

/** The body as a generated form, or as JSON text (a parse error blocks sending until fixed). */
function BodyEditor({
  schema,
  body,
  rawError,
  onBody,
  onRawError,
  onReset,
}: {
  schema: JsonSchema;
  body: unknown;
  rawError: string | null;
  onBody: (body: unknown) => void;
  onRawError: (error: string | null) => void;
  onReset: () => void;
}) {
  const [rawMode, setRawMode] = useState(false);
  return (
    <div className="grid gap-2">
      <div className="flex items-center gap-2">
        <span className="text-xs font-semibold text-slate-700">Body</span>
        <Button size="sm" variant="ghost" aria-pressed={rawMode} onClick={() => setRawMode(!rawMode)}>
          {rawMode ? "Edit as form" : "Edit as JSON"}
        </Button>
        <Button size="sm" variant="ghost" onClick={onReset}>
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
                onBody(JSON.parse(e.target.value));
                onRawError(null);
              } catch (err) {
                onRawError((err as Error).message);
              }
            }}
          />
        </Field>
      ) : (
        <SchemaField name="body" schema={schema} value={body} onChange={onBody} required />
      )}
    </div>
  );
}

/** The request as it will be sent, copyable as curl, and the button that sends it. */
function RequestPreview({
  op,
  request,
  disabled,
  onSend,
}: {
  op: ConsoleOperation;
  request: ConsoleRequest;
  disabled: boolean;
  onSend: () => void;
}) {
  return (
    <div className="grid gap-2">
      <p className="text-xs font-semibold text-slate-700">Request</p>
      <CodeBlock code={toCurl(request)} label="Copy as curl" maxHeight="14rem" />
      <div>
        <Button onClick={onSend} disabled={disabled}>
          Send {op.method} {op.path.replace("/v1", "")}
        </Button>
      </div>
    </div>
  );
}
