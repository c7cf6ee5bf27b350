"use client";
// Step 2: any inbound operation of /v1/openapi.json, its body as a form generated from the
// request schema (prefilled with the document's example), sent with the token from step 1.
// The request is shown as sent (and as curl), the response in full. An incident the console
// created is remembered for the next operation's {incidentId} and linked to the inspector.
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Field, Select } from "@/app/_components/ui/form";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { listOperations, type OpenApiDocument } from "./openapi-operations";
import { OperationForm } from "./operation-form";

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
