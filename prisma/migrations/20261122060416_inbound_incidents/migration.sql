-- CreateEnum
CREATE TYPE "IncidentPurpose" AS ENUM ('Real', 'Test', 'Demo');

-- CreateEnum
CREATE TYPE "RoutingMode" AS ENUM ('TokenAgency', 'Jurisdiction');

-- CreateEnum
CREATE TYPE "CollaborationState" AS ENUM ('Owner', 'Pending', 'Accepted', 'Declined');

-- CreateTable
CREATE TABLE "Call" (
    "id" UUID NOT NULL,
    "agencyId" UUID NOT NULL,
    "callerPhoneNumber" TEXT NOT NULL,
    "startedAtUtc" TIMESTAMPTZ(3) NOT NULL,
    "endedAtUtc" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Call_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Incident" (
    "id" UUID NOT NULL,
    "ownerAgencyId" UUID NOT NULL,
    "createdByAgencyId" UUID,
    "routingMode" "RoutingMode",
    "purpose" "IncidentPurpose" NOT NULL,
    "callId" UUID,
    "version" INTEGER NOT NULL DEFAULT 1,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "closedAt" TIMESTAMPTZ(3),
    "snapshot" JSONB NOT NULL,
    "internal" JSONB NOT NULL,
    "liveVideoEndsAt" TIMESTAMPTZ(3),

    CONSTRAINT "Incident_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IncidentAgency" (
    "incidentId" UUID NOT NULL,
    "agencyId" UUID NOT NULL,
    "collaboration" "CollaborationState" NOT NULL,
    "invitedByAgencyId" UUID,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "IncidentAgency_pkey" PRIMARY KEY ("incidentId","agencyId")
);

-- CreateTable
CREATE TABLE "IncidentChange" (
    "incidentId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "producedAt" TIMESTAMPTZ(3) NOT NULL,
    "actor" TEXT NOT NULL,
    "snapshot" JSONB NOT NULL,

    CONSTRAINT "IncidentChange_pkey" PRIMARY KEY ("incidentId","seq")
);

-- CreateTable
CREATE TABLE "SimulatedSms" (
    "id" UUID NOT NULL,
    "incidentId" UUID NOT NULL,
    "agencyId" UUID NOT NULL,
    "sentTo" TEXT NOT NULL,
    "link" TEXT NOT NULL,
    "sentAt" TIMESTAMPTZ(3) NOT NULL,
    "openedAt" TIMESTAMPTZ(3),

    CONSTRAINT "SimulatedSms_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Call_agencyId_callerPhoneNumber_startedAtUtc_key" ON "Call"("agencyId", "callerPhoneNumber", "startedAtUtc");

-- CreateIndex
CREATE INDEX "Incident_liveVideoEndsAt_idx" ON "Incident"("liveVideoEndsAt");

-- CreateIndex
CREATE INDEX "Incident_createdAt_idx" ON "Incident"("createdAt");

-- CreateIndex
CREATE INDEX "IncidentAgency_agencyId_idx" ON "IncidentAgency"("agencyId");

-- CreateIndex
CREATE INDEX "SimulatedSms_incidentId_idx" ON "SimulatedSms"("incidentId");

-- CreateIndex
CREATE INDEX "SimulatedSms_sentAt_idx" ON "SimulatedSms"("sentAt");

-- AddForeignKey
ALTER TABLE "IncidentAgency" ADD CONSTRAINT "IncidentAgency_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IncidentChange" ADD CONSTRAINT "IncidentChange_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SimulatedSms" ADD CONSTRAINT "SimulatedSms_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

