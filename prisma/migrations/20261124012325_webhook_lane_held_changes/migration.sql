-- AlterTable
ALTER TABLE "WebhookLane" ADD COLUMN     "heldFromSeq" INTEGER;


-- The lanes waiting for a declaration, found by integration when one is accepted (a few rows at most).
CREATE INDEX "WebhookLane_held_idx" ON "WebhookLane"("integrationKey") WHERE "heldFromSeq" IS NOT NULL;
