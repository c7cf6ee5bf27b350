-- The client half of an integration (docs/api-calls.md, docs/decisions/0072): the calls partner
-- clients made, the faults injected for them, and the calls the recorder dropped under load.
-- CreateTable
CREATE TABLE "ClientCall" (
    "id" BIGSERIAL NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "surface" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "clientId" TEXT,
    "agencyId" TEXT,
    "username" TEXT,
    "status" INTEGER NOT NULL,
    "problemCode" TEXT,
    "request" JSONB NOT NULL,
    "requestBody" TEXT,
    "response" JSONB NOT NULL,
    "responseBody" TEXT,
    "token" JSONB,
    "tokenDigest" TEXT,
    "fault" TEXT,
    "incidentId" TEXT,
    "changeSeqs" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "traceId" TEXT,
    "console" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ClientCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClientFault" (
    "id" UUID NOT NULL,
    "clientId" TEXT,
    "surface" TEXT NOT NULL,
    "operation" TEXT,
    "mode" TEXT NOT NULL,
    "retryAfterS" INTEGER NOT NULL DEFAULT 5,
    "remaining" INTEGER,
    "until" TIMESTAMPTZ(3),
    "percent" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "createdBy" TEXT NOT NULL,

    CONSTRAINT "ClientFault_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClientCallDrops" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "dropped" BIGINT NOT NULL DEFAULT 0,
    "lastDropAt" TIMESTAMPTZ(3),

    CONSTRAINT "ClientCallDrops_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ClientCall_clientId_id_idx" ON "ClientCall"("clientId", "id");

-- CreateIndex
CREATE INDEX "ClientCall_incidentId_idx" ON "ClientCall"("incidentId");

