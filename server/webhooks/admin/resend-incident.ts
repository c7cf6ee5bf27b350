// `workbench incidents resend ID [--integration KEY]`: after an outage, re-send
// an incident's create-and-track sequence (platform-interface.md, Delivery
// rule 5), built from the latest snapshot the planner saw, as new events
// (new Service-Request-Ids, a fresh one-hour window) behind the lane's queue.
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../platform/runtime.ts";
import { planResend } from "../planning/plan-deliveries.ts";

export async function resendIncident(options: { runtime: Runtime; incidentId: string; integrationKey?: string }) {
  const { runtime, incidentId, integrationKey } = options;
  const known = await runtime.db.webhookIncidentSnapshot.findUnique({ where: { incidentId }, select: { incidentId: true } });
  if (!known) throw new AppError("IncidentNotFound", 404, `No changes of incident ${incidentId} were ever planned, so there is nothing to re-send.`);
  if (integrationKey && !(await runtime.db.integration.findUnique({ where: { key: integrationKey } }))) {
    throw new AppError("IntegrationNotFound", 404, `No integration "${integrationKey}".`);
  }
  const rows = await runtime.db.$transaction((tx) => planResend(tx, { incidentId, integrationKey, now: runtime.clock.now() }));
  return { incidentId, planned: rows.map((r) => ({ requestId: r.requestId, integration: r.integrationKey, method: r.method, path: r.path })) };
}
