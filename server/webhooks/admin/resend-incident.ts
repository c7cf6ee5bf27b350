// `workbench incidents resend ID [--integration KEY]`: after an outage, re-send
// an incident's create-and-track sequence (platform-interface.md, Delivery
// rule 5), built from the incident's current snapshot, as new events
// (new Service-Request-Ids, a fresh one-hour window) behind the lane's queue.
import { inSqlTransaction } from "../../platform/db/sql-transaction.ts";
import { AppError } from "../../platform/errors.ts";
import { isUuid } from "../../incidents/db-handle.ts";
import type { Runtime } from "../../runtime.ts";
import { planResend } from "../planning/plan-resend.ts";

export async function resendIncident(options: { runtime: Runtime; incidentId: string; integrationKey?: string }) {
  const { runtime, incidentId, integrationKey } = options;
  const known =
    isUuid(incidentId) && (await runtime.db.incident.findUnique({ where: { id: incidentId }, select: { id: true } }));
  if (!known) throw new AppError("IncidentNotFound", `No incident ${incidentId}, so there is nothing to re-send.`);
  if (integrationKey && !(await runtime.db.integration.findUnique({ where: { key: integrationKey } }))) {
    throw new AppError("IntegrationNotFound", `No integration "${integrationKey}".`);
  }
  const rows = await inSqlTransaction(runtime.db, (tx) =>
    planResend(tx, { incidentId, integrationKey, now: runtime.clock.now() }),
  );
  return {
    incidentId,
    planned: rows.map((r) => ({
      requestId: r.requestId,
      integration: r.integrationKey,
      method: r.method,
      path: r.path,
    })),
  };
}
