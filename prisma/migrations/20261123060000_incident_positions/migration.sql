-- CreateTable
CREATE TABLE "IncidentPosition" (
    "id" BIGSERIAL NOT NULL,
    "incidentId" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "location" JSONB NOT NULL,
    "addedSeq" INTEGER NOT NULL,
    "replacedSeq" INTEGER,

    CONSTRAINT "IncidentPosition_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "IncidentPosition_incidentId_source_id_idx" ON "IncidentPosition"("incidentId", "source", "id");

-- AddForeignKey
ALTER TABLE "IncidentPosition" ADD CONSTRAINT "IncidentPosition_incidentId_fkey" FOREIGN KEY ("incidentId") REFERENCES "Incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Written by hand below: what Prisma's schema language cannot say.

-- The snapshot at change `at_seq`, assembled from its stored form: each placeholder
-- track { source, track: [] } gets that source's positions current at that seq
-- (added at or before it, not replaced at or before it), in insertion order.
-- A stored snapshot that still holds its positions (a change recorded before this
-- migration: no track is empty, tracks are never empty) is returned as it is.
-- STABLE: its reads use the calling statement's snapshot, like the other
-- subqueries of the aggregate's lock statement (see apply-change.ts, planEpoch).
CREATE FUNCTION incident_snapshot_at(stored jsonb, incident uuid, at_seq integer) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN jsonb_array_length(stored #> '{caller,tracks}') = 0
      OR EXISTS (SELECT 1 FROM jsonb_array_elements(stored #> '{caller,tracks}') t WHERE jsonb_array_length(t -> 'track') > 0)
    THEN stored
    ELSE jsonb_set(stored, '{caller,tracks}', (
      SELECT jsonb_agg(jsonb_build_object('source', t.v ->> 'source', 'track', coalesce((
        SELECT jsonb_agg(p.location ORDER BY p.id) FROM "IncidentPosition" p
        WHERE p."incidentId" = incident AND p.source = t.v ->> 'source'
          AND p."addedSeq" <= at_seq AND (p."replacedSeq" IS NULL OR p."replacedSeq" > at_seq)), '[]'::jsonb)) ORDER BY t.o)
      FROM jsonb_array_elements(stored #> '{caller,tracks}') WITH ORDINALITY AS t(v, o)))
  END
$$;

-- Existing incidents: their positions move out of the snapshot (addedSeq 0: current
-- at every later seq). Their earlier change records keep their full snapshots.
INSERT INTO "IncidentPosition" ("incidentId", source, location, "addedSeq")
SELECT i.id, t.v ->> 'source', l.v, 0
FROM "Incident" i
CROSS JOIN LATERAL jsonb_array_elements(i.snapshot #> '{caller,tracks}') WITH ORDINALITY AS t(v, o)
CROSS JOIN LATERAL jsonb_array_elements(t.v -> 'track') WITH ORDINALITY AS l(v, n)
ORDER BY i.id, t.o, l.n;

UPDATE "Incident" SET snapshot = jsonb_set(snapshot, '{caller,tracks}', (
  SELECT jsonb_agg(jsonb_build_object('source', t.v ->> 'source', 'track', '[]'::jsonb) ORDER BY t.o)
  FROM jsonb_array_elements(snapshot #> '{caller,tracks}') WITH ORDINALITY AS t(v, o)))
WHERE jsonb_array_length(snapshot #> '{caller,tracks}') > 0;
