-- AlterTable
ALTER TABLE "ReceiverIncident" ADD COLUMN     "trackLengths" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "ReceiverTrackPosition" (
    "integrationKey" TEXT NOT NULL,
    "incidentId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "location" JSONB NOT NULL,

    CONSTRAINT "ReceiverTrackPosition_pkey" PRIMARY KEY ("integrationKey","incidentId","source","n")
);


-- Existing replicas: their positions move out of the snapshot into rows (v3 track entries name their
-- source "source", v1/v2 ones "positionSource"), the snapshot keeps each entry with an empty track,
-- and trackLengths counts what moved.
INSERT INTO "ReceiverTrackPosition" ("integrationKey", "incidentId", "source", "n", "location")
SELECT ri."integrationKey", ri."incidentId", COALESCE(t.entry->>'source', t.entry->>'positionSource'), (p.n - 1)::int, p.location
FROM "ReceiverIncident" ri,
  jsonb_array_elements(COALESCE(ri.snapshot->'caller'->'tracks', '[]'::jsonb)) AS t(entry),
  jsonb_array_elements(COALESCE(t.entry->'track', '[]'::jsonb)) WITH ORDINALITY AS p(location, n)
ON CONFLICT DO NOTHING;

UPDATE "ReceiverIncident" ri SET
  "trackLengths" = COALESCE((
    SELECT jsonb_object_agg(COALESCE(t.entry->>'source', t.entry->>'positionSource'), jsonb_array_length(COALESCE(t.entry->'track', '[]'::jsonb)))
    FROM jsonb_array_elements(ri.snapshot->'caller'->'tracks') AS t(entry)), '{}'::jsonb),
  snapshot = jsonb_set(ri.snapshot, '{caller,tracks}', (
    SELECT COALESCE(jsonb_agg(jsonb_set(t.entry, '{track}', '[]'::jsonb) ORDER BY t.i), '[]'::jsonb)
    FROM jsonb_array_elements(ri.snapshot->'caller'->'tracks') WITH ORDINALITY AS t(entry, i)))
WHERE jsonb_typeof(ri.snapshot->'caller'->'tracks') = 'array';

-- A receiver's unprocessed records, for processing's read (process-deliveries.ts): without it the read
-- walked every record the incident ever had, processed ones included.
CREATE INDEX "ReceiverRecord_pending_idx" ON "ReceiverRecord" ("integrationKey", "incidentId", "id")
  WHERE "outcome" = 'accepted' AND "processedAt" IS NULL;
