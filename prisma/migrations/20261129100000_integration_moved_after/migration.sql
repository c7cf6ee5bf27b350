-- Where an integration's outbox rows for an earlier receiver end (docs/decisions/0062): set when its
-- receiver URL changes; rows up to it are superseded, never sent to the new receiver.
ALTER TABLE "Integration" ADD COLUMN "movedAfterDeliveryId" BIGINT;
