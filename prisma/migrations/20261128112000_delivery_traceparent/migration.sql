-- The W3C traceparent of the planning that produced a delivery, when tracing is on (decision 0054):
-- its attempts' spans are parented to it, even when they run later or in another process.
ALTER TABLE "WebhookDelivery" ADD COLUMN "traceparent" TEXT;
