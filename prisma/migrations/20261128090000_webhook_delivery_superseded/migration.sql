-- A delivery that is never sent (or never sent again) because its integration's accepted /about
-- declaration moved to another major version (platform-interface.md, Versioning rule 3 and
-- Delivery rule 7: one major version to an integration at a time). Finished, like delivered and
-- expired: the lane's next event goes, and the incident reaches the receiver under the new major
-- as the create-and-track sequence of its current snapshot (docs/decisions/0049).
ALTER TYPE "WebhookDeliveryState" ADD VALUE 'superseded';
