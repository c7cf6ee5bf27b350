-- Processing keeps, per (receiver, incident), the id of the last accepted record it applied, rather than
-- marking each record: an incident's records get their ids in the order they commit (the recording
-- statement's per-incident lock, server/receiver/record-delivery.ts), so every record at or below the
-- mark has been applied and every one above it has not. The per-record mark cost an update of each
-- record (a new row version, three index inserts) and an index over the unapplied ones.
CREATE TABLE "ReceiverProgress" (
    "integrationKey" TEXT NOT NULL,
    "incidentKey" TEXT NOT NULL,
    "processedThrough" BIGINT NOT NULL,

    CONSTRAINT "ReceiverProgress_pkey" PRIMARY KEY ("integrationKey","incidentKey")
);

-- What processing had applied so far.
INSERT INTO "ReceiverProgress" ("integrationKey", "incidentKey", "processedThrough")
SELECT "integrationKey", COALESCE("incidentId", ''), max(id)
FROM "ReceiverRecord"
WHERE outcome = 'accepted' AND "processedAt" IS NOT NULL
GROUP BY "integrationKey", COALESCE("incidentId", '');

DROP INDEX "ReceiverRecord_pending_idx";
ALTER TABLE "ReceiverRecord" DROP COLUMN "processedAt";
