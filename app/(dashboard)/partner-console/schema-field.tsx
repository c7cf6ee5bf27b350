"use client";
// A form generated from a request body's JSON Schema (as /v1/openapi.json gives it): objects
// become fieldsets, enums selects, `type: [string, null]` a text box with a "null" switch,
// uuid strings get a Generate button, arrays of enums checkboxes. Anything else is edited as
// JSON. An optional member left empty is omitted from the body (undefined), so the request
// says only what the user filled in.
import { useId } from "react";
import { Button } from "@/app/_components/ui/button";
import { Input, Select, Textarea } from "@/app/_components/ui/form";
import { baseType, isNullable, type JsonSchema } from "./openapi-operations";

type Props = { name: string; schema: JsonSchema; value: unknown; onChange: (v: unknown) => void; required: boolean };

export function SchemaField(props: Props) {
  const type = baseType(props.schema);
  if (type === "object" && props.schema.properties) return <ObjectField {...props} />;
  if (type === "array" && props.schema.items?.enum) return <EnumArrayField {...props} />;
  if (type === "string" || type === "number" || type === "integer" || type === "boolean")
    return <ScalarField {...props} type={type} />;
  return <JsonField {...props} />;
}

function Hint({ schema, required }: { schema: JsonSchema; required: boolean }) {
  const bits = [
    required ? "required" : "optional",
    schema.format,
    schema.maxLength ? `≤ ${schema.maxLength} chars` : null,
  ].filter(Boolean);
  return (
    <p className="mt-0.5 text-[11px] text-slate-600">
      {bits.join(" · ")}
      {schema.description ? ` — ${schema.description}` : ""}
    </p>
  );
}

function ObjectField({ name, schema, value, onChange, required }: Props) {
  const obj = (value && typeof value === "object" ? value : undefined) as Record<string, unknown> | undefined;
  const included = obj !== undefined;
  const setMember = (k: string, v: unknown) => {
    const next = { ...(obj ?? {}) };
    if (v === undefined) delete next[k];
    else next[k] = v;
    onChange(next);
  };
  return (
    <fieldset className="rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-xs font-semibold text-slate-800">
        {name}
        {!required && (
          <label className="ml-2 font-normal text-slate-600">
            <input
              type="checkbox"
              checked={included}
              onChange={(e) => onChange(e.target.checked ? {} : undefined)}
              className="mr-1 align-middle"
            />
            include
          </label>
        )}
      </legend>
      {included || required ? (
        <div className="grid gap-3">
          {Object.entries(schema.properties!).map(([k, s]) => (
            <SchemaField
              key={k}
              name={k}
              schema={s}
              value={obj?.[k]}
              required={schema.required?.includes(k) ?? false}
              onChange={(v) => setMember(k, v)}
            />
          ))}
        </div>
      ) : (
        <p className="text-xs text-slate-600">Omitted.</p>
      )}
    </fieldset>
  );
}

function ScalarField({ name, schema, value, onChange, required, type }: Props & { type: string }) {
  const id = useId();
  const nullable = isNullable(schema);
  const isNull = value === null;
  const text = value === undefined || value === null ? "" : String(value);
  const parse = (raw: string): unknown => {
    if (raw === "") return undefined;
    if (type === "number" || type === "integer") return Number.isFinite(Number(raw)) ? Number(raw) : raw;
    if (type === "boolean") return raw === "true";
    return raw;
  };
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-mono text-xs font-medium text-slate-800">
        {name}
        {required && (
          <span aria-hidden className="text-red-700">
            {" "}
            *
          </span>
        )}
      </label>
      <div className="flex items-center gap-2">
        {schema.enum || type === "boolean" ? (
          <Select id={id} value={text} disabled={isNull} onChange={(e) => onChange(parse(e.target.value))}>
            <option value="">{required ? "choose…" : "(omit)"}</option>
            {(schema.enum ?? [true, false]).map((v) => (
              <option key={String(v)} value={String(v)}>
                {String(v)}
              </option>
            ))}
          </Select>
        ) : (
          <Input
            id={id}
            value={text}
            disabled={isNull}
            inputMode={type === "string" ? undefined : "decimal"}
            placeholder={schema.example !== undefined ? String(schema.example) : required ? "" : "(omit)"}
            className={schema.format === "uuid" ? "font-mono text-xs" : undefined}
            onChange={(e) => onChange(parse(e.target.value))}
          />
        )}
        {schema.format === "uuid" && (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => onChange(crypto.randomUUID())}
            aria-label={`Generate ${name}`}
          >
            Generate
          </Button>
        )}
        {nullable && (
          <label className="flex items-center gap-1 text-xs text-slate-700">
            <input type="checkbox" checked={isNull} onChange={(e) => onChange(e.target.checked ? null : undefined)} />
            null
          </label>
        )}
      </div>
      <Hint schema={schema} required={required} />
    </div>
  );
}

function EnumArrayField({ name, schema, value, onChange, required }: Props) {
  const list = Array.isArray(value) ? (value as unknown[]) : [];
  const toggle = (v: unknown, on: boolean) => {
    const next = on ? [...list, v] : list.filter((x) => x !== v);
    onChange(next.length || required ? next : undefined);
  };
  return (
    <fieldset>
      <legend className="mb-1 font-mono text-xs font-medium text-slate-800">{name}</legend>
      <div className="flex flex-wrap gap-3 text-sm">
        {schema.items!.enum!.map((v) => (
          <label key={String(v)} className="flex items-center gap-1">
            <input type="checkbox" checked={list.includes(v)} onChange={(e) => toggle(v, e.target.checked)} />
            {String(v)}
          </label>
        ))}
      </div>
      <Hint schema={schema} required={required} />
    </fieldset>
  );
}

function JsonField({ name, schema, value, onChange, required }: Props) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-mono text-xs font-medium text-slate-800">
        {name} (JSON)
      </label>
      <Textarea
        id={id}
        defaultValue={value === undefined ? "" : JSON.stringify(value)}
        onBlur={(e) => {
          try {
            onChange(e.target.value.trim() ? JSON.parse(e.target.value) : undefined);
          } catch {
            /* kept as typed until it parses */
          }
        }}
      />
      <Hint schema={schema} required={required} />
    </div>
  );
}
