-- CreateEnum
CREATE TYPE "WebhookDeliveryState" AS ENUM ('pending', 'delivering', 'delivered', 'expired');

-- CreateTable
CREATE TABLE "WebhookCapabilities" (
    "integrationKey" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" TEXT,
    "majorVersion" INTEGER,
    "flags" TEXT[],
    "allowsMonitoring" BOOLEAN NOT NULL DEFAULT false,
    "credential" TEXT,
    "error" TEXT,
    "checkedAt" TIMESTAMPTZ(3) NOT NULL,
    "nextCheckAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookCapabilities_pkey" PRIMARY KEY ("integrationKey")
);

-- CreateTable
CREATE TABLE "WebhookLane" (
    "integrationKey" TEXT NOT NULL,
    "incidentId" UUID NOT NULL,
    "introduced" BOOLEAN NOT NULL DEFAULT false,
    "fullTracks" TEXT[],
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookLane_pkey" PRIMARY KEY ("integrationKey","incidentId")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" BIGSERIAL NOT NULL,
    "requestId" UUID NOT NULL,
    "integrationKey" TEXT NOT NULL,
    "agencyId" UUID NOT NULL,
    "incidentId" UUID NOT NULL,
    "changeSeq" INTEGER NOT NULL,
    "eventName" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "body" JSONB,
    "state" "WebhookDeliveryState" NOT NULL DEFAULT 'pending',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "producedAt" TIMESTAMPTZ(3) NOT NULL,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL,
    "claimedAt" TIMESTAMPTZ(3),
    "claimedBy" TEXT,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" BIGSERIAL NOT NULL,
    "deliveryId" BIGINT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "requestHeaders" JSONB NOT NULL,
    "status" INTEGER,
    "responseHeaders" JSONB,
    "bodyExcerpt" TEXT,
    "error" TEXT,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_requestId_key" ON "WebhookDelivery"("requestId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_incidentId_id_idx" ON "WebhookDelivery"("incidentId", "id");

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_attempt_idx" ON "WebhookAttempt"("deliveryId", "attempt");

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written (Prisma cannot express partial indexes).
-- The head of each lane: unfinished rows ordered by id, probed by the dequeue's NOT EXISTS.
CREATE INDEX "WebhookDelivery_lane_unfinished_idx" ON "WebhookDelivery"("integrationKey", "incidentId", "id") WHERE "state" IN ('pending', 'delivering');
-- The one due-time index that drives retries (no timer per incident).
CREATE INDEX "WebhookDelivery_due_idx" ON "WebhookDelivery"("nextAttemptAt") WHERE "state" = 'pending';
-- Leases of in-flight rows (crash recovery).
CREATE INDEX "WebhookDelivery_claimed_idx" ON "WebhookDelivery"("claimedAt") WHERE "state" = 'delivering';
