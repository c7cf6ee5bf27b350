// The cutover with events already queued (platform-interface.md, Versioning rule 3: "return a 3.x
// version to cut over; after that v2 event routes can be removed"; Delivery rule 7: one major
// version to an integration at a time; decision 0049). Once a declaration of one major version is
// accepted, no event planned under another is sent to the integration any more: each lane's queued
// events of the other contract are superseded, and the incident reaches the receiver as the
// create-and-track sequence of its current snapshot under the accepted one (the resend's plan,
// plan-deliveries.ts `planResend`), followed by the events of later changes. What each lane gets is
// the pure decide-cutover.ts.
//
// A receiver URL change is a cutover too (decision 0062): the events queued for the integration's
// earlier receiver (up to Integration.movedAfterDeliveryId) are superseded the same way once the new
// receiver's declaration is accepted, and each such incident reaches it as its create-and-track
// sequence, whatever major version it declares.
//
// Each lane in one transaction under the incident's row lock (planEpoch bump, as resend, expiry and
// held planning do): a change planned concurrently either committed its rows before this looks at
// the lane, or plans against the lane this leaves. Run by discovery once a declaration is accepted
// (discover-integration.ts), and by the deliverer when it meets an event of another contract, on
// its outcome or before sending it (deliver-event.ts): whichever comes first does the lane's work,
// the other finds nothing left to do.
import { Prisma } from "../../platform/db/client.ts";
import { inSqlTransaction } from "../../platform/db/sql-transaction.ts";
import type { Runtime } from "../../runtime.ts";
import { webhookEvents } from "../webhook-events.ts";
import { decideCutover, plannedForAnother } from "./decide-cutover.ts";
import { laneMajorOf } from "./legacy-lane.ts";
import { lockLaneTarget } from "./load-targets.ts";
import { planResend } from "./plan-resend.ts";
import { logCutover, type CutOverLane, type LaneCutover, type SupersededRow } from "../outbox/lane-cutover.ts";

/**
 * Every lane of `integrationKey` with unfinished events of a contract other than its accepted one, or
 * planned for its earlier receiver (each lane its own transaction).
 */
export async function supersedeQueuedEvents(
  runtime: Pick<Runtime, "db" | "clock" | "logger">,
  integrationKey: string,
): Promise<LaneCutover[]> {
  const [accepted] = await runtime.db.$queryRaw<Array<{ major: number | null; movedAfter: string | null }>>`
    SELECT c."majorVersion" AS major, i."movedAfterDeliveryId"::text AS "movedAfter"
    FROM "WebhookCapabilities" c JOIN "Integration" i ON i.key = c."integrationKey"
    WHERE c."integrationKey" = ${integrationKey} AND c.status = 'active'`;
  const major = accepted?.major;
  if (major !== 1 && major !== 2 && major !== 3) return [];
  const movedAfter = accepted!.movedAfter ?? "0";
  // The unfinished-lane index (integrationKey, incidentId, id) over pending and delivering rows serves this.
  const lanes = await runtime.db.$queryRaw<Array<{ incidentId: string }>>`
    SELECT DISTINCT "incidentId"::text AS "incidentId" FROM "WebhookDelivery"
    WHERE "integrationKey" = ${integrationKey} AND state IN ('pending', 'delivering')
      AND (path NOT LIKE ${`/v${major}/%`} OR id <= ${movedAfter}::bigint)`;
  const outcomes: LaneCutover[] = [];
  for (const { incidentId } of lanes) {
    const outcome = await inSqlTransaction(runtime.db, (tx) =>
      cutOverLane(tx, { integrationKey, incidentId, now: runtime.clock.now() }),
    );
    if (!outcome) continue;
    outcomes.push(outcome);
    logCutover(runtime, integrationKey, outcome);
  }
  return outcomes;
}

/** One lane, inside a transaction (outbox/lane-cutover.ts says what `claimed` and null mean). */
export const cutOverLane: CutOverLane = async (tx, options) => {
  const { integrationKey, incidentId, now, claimed } = options;
  const target = await lockLaneTarget(tx, { integrationKey, incidentId });
  if (!target || target.held) return null;
  const acceptedMajor = target.major;
  const [integration] = await tx.query<{ movedAfter: string | null }>(Prisma.sql`
    SELECT "movedAfterDeliveryId"::text AS "movedAfter" FROM "Integration" WHERE key = ${integrationKey}`);
  const movedAfterId = integration?.movedAfter ? BigInt(integration.movedAfter) : null;
  if (claimed && (!plannedForAnother(claimed, { acceptedMajor, movedAfterId }) || !(await claimed.supersede())))
    return null;

  const unfinished = await tx.query<{ id: string; state: "pending" | "delivering"; path: string }>(Prisma.sql`
    SELECT id::text AS id, state::text AS state, path FROM "WebhookDelivery"
    WHERE "integrationKey" = ${integrationKey} AND "incidentId" = ${incidentId}::uuid AND state IN ('pending', 'delivering')
    ORDER BY id`);
  const decision = decideCutover({
    acceptedMajor,
    laneMajor: target.stored ? laneMajorOf(target.stored) : null,
    laneIntroduced: target.stored?.introduced ?? null,
    movedAfterId,
    unfinished: unfinished.map((e) => ({ ...e, id: BigInt(e.id) })),
    supersededClaimed: claimed !== undefined,
  });
  // Still pending (a claim since the read above leaves a row to the deliverer, which supersedes it itself).
  const superseded = decision.supersede.length
    ? await tx.query<SupersededRow>(Prisma.sql`
        UPDATE "WebhookDelivery" SET state = 'superseded', "finishedAt" = ${now}::timestamptz
        WHERE id = ANY(${decision.supersede.map(String)}::bigint[]) AND state = 'pending'
        RETURNING id::text AS id, "requestId"::text AS "requestId", method, path, "attemptCount" AS "attemptCount"`)
    : [];
  // A lane still holding changes for want of a declaration is introduced by planning them (plan-held-changes.ts).
  const introduced = decision.introduce ? await planResend(tx, { incidentId, integrationKey, now }) : [];
  tx.afterCommit(() => {
    const events = webhookEvents();
    for (const r of superseded)
      events.emit("delivery:superseded", {
        deliveryId: r.id,
        requestId: r.requestId,
        integrationKey,
        incidentId,
        method: r.method,
        path: r.path,
        attempts: r.attemptCount,
        acceptedMajor,
      });
    if (superseded.length || introduced.length || claimed)
      events.emit("lane:cut-over", {
        integrationKey,
        incidentId,
        acceptedMajor,
        superseded: superseded.length + (claimed ? 1 : 0),
        introduced: introduced.length,
      });
  });
  return { incidentId, acceptedMajor, superseded, introduced };
};
