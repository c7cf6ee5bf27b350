// PURE: the operations of the inbound OpenAPI 3.1 document (/v1/openapi.json) as the partner
// console's forms need them — path and header parameters, the request body schema with its
// $refs resolved, the example the document gives, the scopes the operation needs.
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  description?: string;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema };
type RawOperation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  security?: Array<Record<string, string[]>>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

export type ConsoleOperation = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tag: string;
  scopes: string[];
  pathParams: Parameter[];
  headerParams: Parameter[];
  body: JsonSchema | null;
  bodyRequired: boolean;
  example: unknown;
};

const METHODS = ["get", "post", "put", "patch", "delete"];

/** Follows `#/components/schemas/X` references (recursively, for nested members too). */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema | undefined, depth = 0): JsonSchema | null {
  if (!schema || depth > 20) return null;
  const base = schema.$ref
    ? (doc.components?.schemas?.[schema.$ref.replace("#/components/schemas/", "")] ?? null)
    : schema;
  if (!base) return null;
  const merged: JsonSchema = schema.$ref
    ? { ...base, description: schema.description ?? base.description }
    : { ...base };
  if (merged.properties)
    merged.properties = Object.fromEntries(
      Object.entries(merged.properties).map(([k, v]) => [k, resolveSchema(doc, v, depth + 1) ?? {}]),
    );
  if (merged.items) merged.items = resolveSchema(doc, merged.items, depth + 1) ?? {};
  return merged;
}

export function listOperations(doc: OpenApiDocument): ConsoleOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => {
      const op = item[m]!;
      const body = resolveSchema(doc, op.requestBody?.content?.["application/json"]?.schema);
      return {
        id: op.operationId ?? `${m} ${path}`,
        method: m.toUpperCase(),
        path,
        summary: op.summary ?? "",
        description: op.description ?? "",
        tag: op.tags?.[0] ?? "Other",
        scopes: [...new Set((op.security ?? []).flatMap((s) => Object.values(s).flat()))],
        pathParams: (op.parameters ?? []).filter((p) => p.in === "path"),
        headerParams: (op.parameters ?? []).filter((p) => p.in === "header"),
        body,
        bodyRequired: op.requestBody?.required ?? false,
        example: body?.example,
      };
    }),
  );
}

export const isNullable = (s: JsonSchema) => Array.isArray(s.type) && s.type.includes("null");
export const baseType = (s: JsonSchema) =>
  (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type) ?? (s.properties ? "object" : undefined);
