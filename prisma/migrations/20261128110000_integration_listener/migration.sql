-- CreateTable
CREATE TABLE "IntegrationListener" (
    "integrationKey" TEXT NOT NULL,
    "attachmentId" UUID NOT NULL,
    "callerKind" TEXT NOT NULL,
    "callerName" TEXT NOT NULL,
    "callerRole" TEXT NOT NULL,
    "remoteAddress" TEXT NOT NULL,
    "forwardTo" TEXT NOT NULL,
    "attachedAt" TIMESTAMPTZ(3) NOT NULL,
    "processId" TEXT,
    "seenAt" TIMESTAMPTZ(3),
    "disconnectedAt" TIMESTAMPTZ(3),

    CONSTRAINT "IntegrationListener_pkey" PRIMARY KEY ("integrationKey")
);

-- AddForeignKey
ALTER TABLE "IntegrationListener" ADD CONSTRAINT "IntegrationListener_integrationKey_fkey" FOREIGN KEY ("integrationKey") REFERENCES "Integration"("key") ON DELETE CASCADE ON UPDATE CASCADE;
