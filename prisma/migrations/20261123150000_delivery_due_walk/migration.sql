-- The claim walks the due index in (nextAttemptAt, id) order, one LIMIT-1 step
-- at a time (server/webhooks/delivery/claim-deliveries.ts), so the index must
-- carry id as its second key: each step is then one index probe, and the walk
-- stops as soon as it found enough lane heads instead of reading the whole backlog.
CREATE INDEX "WebhookDelivery_due_walk_idx" ON "WebhookDelivery"("nextAttemptAt", "id") WHERE "state" = 'pending';
DROP INDEX IF EXISTS "WebhookDelivery_due_idx";
