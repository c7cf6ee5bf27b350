-- Guessing slowed down by account, by (address, account) pair and by address, and the addresses an
-- account signed in from (docs/decisions/0070). The old rows are keyed "subject:"; they live 15 minutes
-- at most, so they are dropped rather than rewritten.
DELETE FROM "GuessThrottle";

-- AlterTable
ALTER TABLE "GuessThrottle" ADD COLUMN     "source" TEXT,
ADD COLUMN     "subject" TEXT;

-- CreateTable
CREATE TABLE "GuessTrust" (
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "lastSuccessAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "GuessTrust_pkey" PRIMARY KEY ("kind","key")
);

-- CreateIndex
CREATE INDEX "GuessTrust_lastSuccessAt_idx" ON "GuessTrust"("lastSuccessAt");

