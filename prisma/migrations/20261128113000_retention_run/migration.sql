-- The retention pruner's last run (server/workbench/retention/, docs/decisions/0057). One row, written
-- by whichever process holds the pruner's advisory lock; the Admin page reads it.
CREATE TABLE "RetentionRun" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "retentionDays" INTEGER NOT NULL,
    "cutoff" TIMESTAMPTZ(3) NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "finishedAt" TIMESTAMPTZ(3),
    "pruned" JSONB NOT NULL DEFAULT '{}',
    "prunedTotal" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,

    CONSTRAINT "RetentionRun_pkey" PRIMARY KEY ("id")
);
