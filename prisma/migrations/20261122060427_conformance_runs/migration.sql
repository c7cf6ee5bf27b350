-- CreateTable
CREATE TABLE "ConformanceRun" (
    "id" UUID NOT NULL,
    "receiverUrl" TEXT NOT NULL,
    "agencyId" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "results" JSONB NOT NULL DEFAULT '[]',
    "aboutVersion" TEXT,
    "clockOffsetMs" BIGINT NOT NULL DEFAULT 0,
    "errorDetail" TEXT,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ConformanceRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ConformanceRun_startedAt_idx" ON "ConformanceRun"("startedAt");

