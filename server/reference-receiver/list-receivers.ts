// What the dashboard and `workbench receiver …` show about the embedded receivers.
import type { Clock } from "../platform/clock/clock.ts";
import { composeReplicas } from "./replica-storage.ts";
import type { DbClient } from "../platform/db/client.ts";
import type { TIncidentSnapshotV3 } from "../incidents/snapshot.schema.ts";
import { declarationProblem, listFlags } from "./capabilities.ts";
import { readFault } from "../directory/integration-faults.ts";
import { readCapabilities, requireEmbeddedReceiver } from "./receiver-capabilities.ts";
import { incidentKeyOf, processedThrough } from "./receiver-progress.ts";
import { LEGACY_PROBE_DETAIL } from "./legacy-credential-probe.ts";

export type ReceiverSummary = Awaited<ReturnType<typeof describeReceiver>>;

export async function listReceivers(options: { db: DbClient; clock: Clock }) {
  const integrations = await options.db.integration.findMany({
    where: { receiverUrl: { startsWith: "/receivers/" } },
    orderBy: { key: "asc" },
  });
  const embedded = integrations.filter((i) => i.receiverUrl === `/receivers/${i.key}`);
  return Promise.all(embedded.map((i) => describeReceiver({ ...options, key: i.key })));
}

export async function describeReceiver(options: { db: DbClient; clock: Clock; key: string }) {
  const { db, clock, key } = options;
  const integration = await requireEmbeddedReceiver({ db, key });
  const agency = await db.agency.findUnique({ where: { id: integration.agencyId } });
  const declaration = await readCapabilities({ db, key });
  const [fault, networkFault, counts, probes] = await Promise.all([
    readFault({ db, clock, key, side: "receiver" }),
    readFault({ db, clock, key, side: "dispatcher" }),
    db.receiverRecord.groupBy({ by: ["outcome"], where: { integrationKey: key }, _count: { _all: true } }),
    db.receiverRecord.count({
      where: { integrationKey: key, outcome: "rejected-token", path: "/about", detail: LEGACY_PROBE_DETAIL },
    }),
  ]);
  return {
    key,
    path: integration.receiverUrl,
    agency: { id: integration.agencyId, displayName: agency?.displayName ?? integration.agencyId },
    declaration,
    flags: listFlags(declaration),
    /** Why the service would reject this /about (Endpoints rule 1), or null. */
    declarationProblem: declarationProblem(declaration),
    fault,
    networkFault,
    recorded: Object.fromEntries(counts.map((c) => [c.outcome, c._count._all])) as Record<string, number>,
    /** Of the refused tokens, discovery's expected legacy-credential probes (legacy-credential-probe.ts). */
    legacyProbes: probes,
  };
}

export type ReceiverRecordView = Awaited<ReturnType<typeof listReceiverRecords>>[number];

/** What a receiver recorded, newest first, with duplicates and anomalies marked. */
export async function listReceiverRecords(options: { db: DbClient; key: string; incidentId?: string; limit?: number }) {
  await requireEmbeddedReceiver({ db: options.db, key: options.key });
  const rows = await options.db.receiverRecord.findMany({
    where: { integrationKey: options.key, ...(options.incidentId ? { incidentId: options.incidentId } : {}) },
    orderBy: { id: "desc" },
    take: Math.min(options.limit ?? 100, 1000),
  });
  const marks = await processedThrough(
    options.db,
    options.key,
    rows.map((r) => r.incidentId),
  );
  return rows.map((r) => ({
    id: r.id.toString(),
    receivedAt: r.receivedAt.toISOString(),
    method: r.method,
    path: r.path,
    route: r.route,
    incidentId: r.incidentId,
    serviceRequestId: r.serviceRequestId,
    requestTimestamp: r.requestTimestamp,
    status: r.status,
    outcome: r.outcome,
    detail: r.detail,
    /** How many retries of this Service-Request-Id were answered without recording again. */
    duplicates: r.duplicates,
    lastDuplicateAt: r.lastDuplicateAt?.toISOString() ?? null,
    /** Applied to the replica: accepted, and at or below its incident's processing mark. */
    processed: r.outcome === "accepted" && r.id <= (marks.get(incidentKeyOf(r.incidentId)) ?? 0n),
    anomalies: r.anomalies,
    isTest: r.isTest,
    body: r.body,
  }));
}

/** The receiver's replicas, newest first (the dashboard compares one with the platform's snapshot via diffReplica). */
export async function listReplicas(options: { db: DbClient; key: string; incidentId?: string; limit?: number }) {
  const rows = await options.db.receiverIncident.findMany({
    where: { integrationKey: options.key, ...(options.incidentId ? { incidentId: options.incidentId } : {}) },
    orderBy: { updatedAt: "desc" },
    take: Math.min(options.limit ?? 50, 500),
  });
  const replicas = rows.map((r) => ({
    incidentId: r.incidentId,
    purpose: r.purpose,
    isTest: r.purpose === "Test",
    closedAtUtc: r.closedAtUtc,
    fullSources: r.fullSources,
    updatedAt: r.updatedAt.toISOString(),
    snapshot: r.snapshot as TIncidentSnapshotV3,
  }));
  // The snapshots are stored with empty tracks; their positions are rows of their own (replica-storage.ts).
  return composeReplicas(options.db, options.key, replicas);
}

/** One incident's replica, its tracks filled in, or null when the receiver has none. */
export async function readReplica(options: { db: DbClient; key: string; incidentId: string }) {
  const [replica] = await listReplicas({ ...options, limit: 1 });
  return replica ?? null;
}
