-- CreateTable
CREATE TABLE "GuessThrottle" (
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "lastFailureAt" TIMESTAMPTZ(3) NOT NULL,
    "blockedUntil" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GuessThrottle_pkey" PRIMARY KEY ("kind","key")
);

-- CreateIndex
CREATE INDEX "GuessThrottle_lastFailureAt_idx" ON "GuessThrottle"("lastFailureAt");

