-- CreateTable
CREATE TABLE "ReceiverCapabilities" (
    "integrationKey" TEXT NOT NULL,
    "declaration" JSONB NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ReceiverCapabilities_pkey" PRIMARY KEY ("integrationKey")
);

-- CreateTable
CREATE TABLE "IntegrationFault" (
    "integrationKey" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "startsAt" TIMESTAMPTZ(3),
    "endsAt" TIMESTAMPTZ(3),
    "setAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "IntegrationFault_pkey" PRIMARY KEY ("integrationKey","side")
);

-- CreateTable
CREATE TABLE "ReceiverRecord" (
    "id" BIGSERIAL NOT NULL,
    "integrationKey" TEXT NOT NULL,
    "dedupeKey" TEXT,
    "serviceRequestId" TEXT,
    "requestTimestamp" TEXT,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "route" TEXT,
    "incidentId" TEXT,
    "body" JSONB,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,
    "status" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "duplicates" INTEGER NOT NULL DEFAULT 0,
    "lastDuplicateAt" TIMESTAMPTZ(3),
    "processedAt" TIMESTAMPTZ(3),
    "anomalies" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "isTest" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ReceiverRecord_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReceiverIncident" (
    "integrationKey" TEXT NOT NULL,
    "incidentId" TEXT NOT NULL,
    "snapshot" JSONB NOT NULL,
    "purpose" TEXT NOT NULL,
    "fullSources" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "closedAtUtc" TEXT,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ReceiverIncident_pkey" PRIMARY KEY ("integrationKey","incidentId")
);

-- CreateIndex
CREATE INDEX "ReceiverRecord_integrationKey_incidentId_id_idx" ON "ReceiverRecord"("integrationKey", "incidentId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ReceiverRecord_integrationKey_dedupeKey_key" ON "ReceiverRecord"("integrationKey", "dedupeKey");

