-- The claim lease of an attempt in flight is measured in real time, not on the
-- workbench clock: the lease answers "is the worker that claimed this head still
-- alive?", and jumping the workbench clock ahead (to watch retries and expiry)
-- must not let a second worker claim a head whose attempt is still running.
-- "claimedAt" stays the claim's workbench time (the outcome guard compares it).
ALTER TABLE "WebhookDelivery" ADD COLUMN "leaseExpiresAt" TIMESTAMPTZ(3);

-- Rows in flight when this migration runs: their worker may be another live
-- process (scale-out), so they get a whole default lease before anyone re-claims them.
UPDATE "WebhookDelivery" SET "leaseExpiresAt" = clock_timestamp() + interval '30 seconds' WHERE state = 'delivering';

DROP INDEX IF EXISTS "WebhookDelivery_claimed_idx";
CREATE INDEX "WebhookDelivery_lease_idx" ON "WebhookDelivery"("leaseExpiresAt") WHERE "state" = 'delivering';
