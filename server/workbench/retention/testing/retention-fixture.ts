// Test data of every kind the pruner decides on, written at a given workbench time `at`: rows that
// count as old once the clock is well past `at`, and their kept neighbours (unfinished deliveries, an
// unapplied receiver record, a conformance run still going, a live refresh-token family). Test-only.
import { randomUUID } from "node:crypto";
import type { DbClient } from "../../../platform/db/client.ts";
import { AGENCY, USER } from "../../../directory/seed-ids.ts";

// A seeded embedded receiver, so its pages (records, replicas) read as a user sees them.
export const TEST_INTEGRATION = "fire-rescue";
const DAY = 86_400_000;

/** Empties the tables the pruner touches, so a test counts only its own rows. */
export async function emptyPrunedTables(db: DbClient) {
  await db.$executeRaw`TRUNCATE "WebhookDelivery", "WebhookAttempt", "ReceiverRecord", "ConformanceRun",
    "SigninToken", "AuthorizationCode", "RefreshToken", "PortalSession", "WorkbenchSession", "GuessThrottle"`;
}

export async function insertDelivery(
  db: DbClient,
  o: { incidentId: string; at: Date; state: "pending" | "delivering" | "delivered" | "expired" | "superseded" },
) {
  const finished = o.state !== "pending" && o.state !== "delivering";
  const row = await db.webhookDelivery.create({
    data: {
      requestId: randomUUID(),
      integrationKey: TEST_INTEGRATION,
      agencyId: AGENCY.northPsap,
      incidentId: o.incidentId,
      changeSeq: 1,
      eventName: "incident.changed",
      method: "POST",
      path: `/v3/incidents/${o.incidentId}`,
      body: { state: o.state },
      state: o.state,
      attemptCount: finished ? 1 : 0,
      producedAt: o.at,
      nextAttemptAt: o.at,
      finishedAt: finished ? o.at : null,
    },
  });
  if (finished)
    await db.webhookAttempt.create({
      data: {
        deliveryId: row.id,
        attempt: 1,
        startedAt: o.at,
        durationMs: 3,
        url: "http://x.test",
        requestHeaders: {},
      },
    });
  return row;
}

export async function insertRecord(
  db: DbClient,
  o: { incidentId: string; at: Date; outcome: "accepted" | "rejected-token"; processed: boolean },
) {
  const row = await db.receiverRecord.create({
    data: {
      integrationKey: TEST_INTEGRATION,
      dedupeKey: o.outcome === "accepted" ? randomUUID() : null,
      method: "POST",
      path: "/v3/incidents",
      incidentId: o.incidentId,
      receivedAt: o.at,
      status: o.outcome === "accepted" ? 200 : 401,
      outcome: o.outcome,
    },
  });
  if (o.processed)
    await db.receiverProgress.upsert({
      where: { integrationKey_incidentKey: { integrationKey: TEST_INTEGRATION, incidentKey: o.incidentId } },
      create: { integrationKey: TEST_INTEGRATION, incidentKey: o.incidentId, processedThrough: row.id },
      update: { processedThrough: row.id },
    });
  return row;
}

export async function insertConformanceRun(db: DbClient, o: { at: Date; finished: boolean }) {
  return db.conformanceRun.create({
    data: {
      id: randomUUID(),
      receiverUrl: "http://x.test",
      agencyId: AGENCY.northPsap,
      status: o.finished ? "passed" : "running",
      startedAt: o.at,
      finishedAt: o.finished ? o.at : null,
    },
  });
}

/** Sign-in artefacts of every table at `at`: which of them lives on (`liveFor` ms) is the caller's choice. */
export async function insertSignIn(db: DbClient, o: { at: Date; tag: string; liveFor: number }) {
  const { at, tag } = o;
  const until = new Date(at.getTime() + o.liveFor);
  const family = randomUUID();
  await db.signinToken.create({
    data: {
      tokenHash: `st-${tag}`,
      userId: USER.dispatcherNorth,
      clientId: "c",
      agencyId: AGENCY.northPsap,
      createdAt: at,
      expiresAt: until,
    },
  });
  const code = {
    clientId: "c",
    userId: USER.dispatcherNorth,
    redirectUri: "http://x.test",
    codeChallenge: "x",
    scopes: [],
  };
  await db.authorizationCode.create({ data: { codeHash: `ac-${tag}`, ...code, createdAt: at, expiresAt: until } });
  await db.portalSession.create({
    data: { idHash: `ps-${tag}`, userId: USER.dispatcherNorth, method: "password", createdAt: at, expiresAt: until },
  });
  await db.workbenchSession.create({
    data: { idHash: `ws-${tag}`, memberId: randomUUID(), createdAt: at, expiresAt: until },
  });
  const token = { familyId: family, clientId: "c", userId: USER.dispatcherNorth, scopes: [], createdAt: at };
  // A spent token that expired at once, beside one of the family's that lives `liveFor`: the family goes only as a whole.
  await db.refreshToken.create({ data: { tokenHash: `rt-${tag}-spent`, ...token, expiresAt: at, usedAt: at } });
  await db.refreshToken.create({ data: { tokenHash: `rt-${tag}`, ...token, expiresAt: until } });
  await db.guessThrottle.create({
    data: { kind: "client", key: `subject:${tag}`, failures: 3, lastFailureAt: at, blockedUntil: until },
  });
}

export const days = (n: number) => n * DAY;
