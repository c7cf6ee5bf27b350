-- CreateTable
CREATE TABLE "WebhookIncidentSnapshot" (
    "incidentId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "snapshot" JSONB NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookIncidentSnapshot_pkey" PRIMARY KEY ("incidentId")
);

