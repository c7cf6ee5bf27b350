// Schemas shared by the v1 operations, and the documented error responses.
// Text limits are workbench decisions (the spec leaves them open); they are in
// every schema's description and therefore in /v1/openapi.json.
import { z } from "@hono/zod-openapi";
import { NOT_BLANK, NOT_BLANK_MESSAGE } from "../../../incidents/snapshot.schema.ts";
import { APP_ERRORS, problemCodeOf, problemTitleOf } from "../../../platform/error-codes.ts";
import type { ProblemCode } from "../problem.ts";

export const TEXT_LIMITS = { label: 200, callSign: 50, fullName: 200, summary: 4000, description: 4000 } as const;

export const ZPhoneNumber = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .regex(/^\+?[0-9][0-9 ()-]{1,31}$/, "digits, optionally with a leading +, spaces, dashes or parentheses")
  .openapi({ description: "Caller phone number, E.164 recommended (max 32 characters).", example: "+4791234567" });

export const ZGeoPointBody = z
  .strictObject({
    latitude: z.number().min(-90).max(90).openapi({ example: 59.97 }),
    longitude: z.number().min(-180).max(180).openapi({ example: 10.76 }),
  })
  .openapi("GeoPoint", {
    description: "WGS84 position picked by a dispatcher or partner (no accuracy, no capture time).",
  });

/** Rule 1: required property; text or null (null clears); empty or whitespace-only → ValidationFailed. */
export const nullableText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(NOT_BLANK, NOT_BLANK_MESSAGE)
    .nullable()
    .openapi({
      description: `Text up to ${max} characters, or null to clear. Empty or whitespace-only text is ValidationFailed.`,
    });

export const ZUtcInstant = z.iso.datetime({ offset: true }).openapi({
  description: "ISO 8601 timestamp; stored with millisecond precision and returned in UTC (Z).",
  example: "2026-11-22T08:15:00.000Z",
});

export const ZIncidentIdParam = z.object({
  incidentId: z.string().openapi({
    param: { name: "incidentId", in: "path" },
    format: "uuid",
    example: "7d3c1e0a-5b7e-4c1f-9a52-1f1d3f0a9b11",
  }),
});

export const ZProblem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    code: z.string(),
    traceId: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .openapi("Problem", {
    description: "application/problem+json; branch on `code`, never on `detail`. `type` is {base_url}/problems/{code}.",
  });

const AUTH: ProblemCode[] = [
  "AuthenticationRequired",
  "AgencyContextRequired",
  "AuthorizationDenied",
  "InternalServerError",
  "DatabaseUnavailable",
];
const USER: ProblemCode[] = [...AUTH, "UserContextRequired"];
const BODY: ProblemCode[] = ["ValidationFailed", "RequestTooLarge", "UnsupportedMediaType"];
const ON_INCIDENT: ProblemCode[] = [
  ...USER,
  "IncidentNotFound",
  "IncidentClosed",
  "UnsupportedMediaType",
  "RequestTooLarge",
];

/**
 * What a code's problem object says in the document: a code the spec's tables lack is written as the
 * spec's code it stands for (DatabaseUnavailable: InternalServerError, decision 0064), with its own status.
 */
const WHEN: Partial<Record<ProblemCode, string>> = {
  DatabaseUnavailable:
    "the database is out of reach (restarting, cut off): nothing was changed; retry after `Retry-After`",
};
const RETRY_AFTER = {
  "Retry-After": { description: "seconds to wait before retrying", schema: { type: "integer" as const } },
};

/** The documented error responses of an operation: grouped by status, one example per code. */
export function errorResponses(kind: "agency" | "user" | "incident", codes: ProblemCode[], withBody: boolean) {
  const base = kind === "agency" ? AUTH : kind === "user" ? USER : ON_INCIDENT;
  const all = [...new Set([...base, ...(withBody ? BODY : []), ...codes])];
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of all) {
    const { status } = APP_ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        status,
        {
          description: list.map((c) => `\`${problemCodeOf(c)}\`${WHEN[c] ? ` (${WHEN[c]})` : ""}`).join(", "),
          ...(status === 503 ? { headers: RETRY_AFTER } : {}),
          content: {
            "application/problem+json": {
              schema: ZProblem,
              examples: Object.fromEntries(
                list.map((code) => [
                  problemCodeOf(code),
                  {
                    summary: problemTitleOf(code),
                    value: {
                      type: `https://workbench.example/problems/${problemCodeOf(code)}`,
                      title: problemTitleOf(code),
                      status,
                      detail: WHEN[code] ? `${WHEN[code].replaceAll("`", "")}.` : problemTitleOf(code) + ".",
                      instance: "/v1/…",
                      code: problemCodeOf(code),
                      traceId: "5f2b8c1e9d0a4b7f",
                      ...(code === "ValidationFailed"
                        ? { errors: [{ field: "caller.phoneNumber", message: "Required" }] }
                        : {}),
                    },
                  },
                ]),
              ),
            },
          },
        },
      ]),
  );
}

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});
