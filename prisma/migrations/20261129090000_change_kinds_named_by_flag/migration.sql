-- An incident change is named by the capability flag of the event that carries it (the spec's own
-- name: webhook-contracts/v3/routes.ts; docs/decisions/0061): five kinds had names of their own.
-- Stored changes take the flag's name, so every row, old or new, reads the same. Bodies, deliveries
-- and exports do not hold a change kind and are unchanged.
UPDATE "IncidentChange"
SET kind = CASE kind
    WHEN 'caller.locationAdded' THEN 'caller.newLocation'
    WHEN 'caller.chatActivated' THEN 'caller.chat.activated'
    WHEN 'caller.liveVideoActivated' THEN 'caller.liveVideo.activated'
    WHEN 'caller.liveVideoEnded' THEN 'caller.liveVideo.ended'
    WHEN 'involvedAgency.collaborationChanged' THEN 'involvedAgency.collaboration.changed'
  END
WHERE kind IN ('caller.locationAdded', 'caller.chatActivated', 'caller.liveVideoActivated', 'caller.liveVideoEnded',
               'involvedAgency.collaborationChanged');
