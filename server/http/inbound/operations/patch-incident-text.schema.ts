import { z } from "@hono/zod-openapi";
import type { TextField } from "../../../incidents/set-incident-text.ts";
import { TEXT_LIMITS, nullableText } from "./common.schema.ts";

/** workbench-decisions.md: the five PATCH routes, their property and the text field they set. */
export const TEXT_ROUTES = [
  {
    path: "/v1/incidents/{incidentId}/label",
    property: "label",
    field: "label",
    max: TEXT_LIMITS.label,
    title: "incident label",
    example: "Fall, elderly",
  },
  {
    path: "/v1/incidents/{incidentId}/call-sign",
    property: "callSign",
    field: "callSign",
    max: TEXT_LIMITS.callSign,
    title: "call sign",
    example: "AMB-12",
  },
  {
    path: "/v1/incidents/{incidentId}/caller/full-name",
    property: "fullName",
    field: "fullName",
    max: TEXT_LIMITS.fullName,
    title: "caller full name",
    example: "Kari Nordmann",
  },
  {
    path: "/v1/incidents/{incidentId}/summary",
    property: "summary",
    field: "summary",
    max: TEXT_LIMITS.summary,
    title: "incident summary",
    example: "Woman, 80, fell on stairs, conscious.",
  },
  {
    path: "/v1/incidents/{incidentId}/patient/description",
    property: "description",
    field: "patientDescription",
    max: TEXT_LIMITS.description,
    title: "patient description",
    example: "Hip pain, cannot stand.",
  },
] as const satisfies ReadonlyArray<{
  path: string;
  property: string;
  field: TextField;
  max: number;
  title: string;
  example: string;
}>;

/** Body and response of one text PATCH: `{ <property>: text | null }`, the property required. */
export function textFieldSchema(property: string, max: number, example: string, name: string) {
  return z.strictObject({ [property]: nullableText(max) }).openapi(name, { example: { [property]: example } });
}
