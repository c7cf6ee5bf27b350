-- The delivery inspector's keyset pages (issue 7): newest first within a filter.
-- (incidentId, id) exists already (WebhookDelivery_incidentId_id_idx).
CREATE INDEX "WebhookDelivery_integrationKey_id_idx" ON "WebhookDelivery"("integrationKey", "id");
CREATE INDEX "WebhookDelivery_state_id_idx" ON "WebhookDelivery"("state", "id");
