// Validating a delivery's body against its route, and naming what is wrong in the
// receiver's terms: a missing key is never a cleared value (spec, "Webhook incident
// snapshot (v3)"), and a track event never carries an empty track (Endpoints rule 5).
import type { z } from "zod";

export type BodyCheck<T> = { ok: true; value: T } | { ok: false; anomalies: string[] };

export function checkBody<T>(schema: z.ZodType<T>, body: unknown): BodyCheck<T> {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const anomalies = result.error.issues.map((issue) => {
    const path = issue.path.join(".") || "(body)";
    if (issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined)
      return `missing-key:${path}`;
    if (issue.code === "too_small" && issue.path.at(-1) === "track") return `empty-track:${path}`;
    return `invalid-body:${path}: ${issue.message}`;
  });
  return { ok: false, anomalies: [...new Set(anomalies)] };
}
