-- The caller's temporary-information warning after each change (Incident.internal's), kept with the
-- change record so a change planned later for a v1/v2 receiver carries the v2 contract's member of
-- its own (docs/decisions/0063). Records from before hold none: null, as a v2 body without one.
ALTER TABLE "IncidentChange" ADD COLUMN "temporaryInformation" JSONB;
