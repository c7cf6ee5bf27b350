-- Snapshots grow with the caller's tracks (45 KB of JSON after ~260 positions) and
-- each change writes the incident's snapshot, its change record's copy and the
-- embedded receiver's replica: pglz compression of those values was the part of
-- PostgreSQL's work per change that grew with the track (measured on
-- PostgreSQL 15 here: pglz ~0.35 ms per 45 KB value, lz4 ~0.03 ms).
--
-- lz4 needs a server built with it (Debian's and most distributions' PostgreSQL
-- ≥ 14). The embedded-postgres binaries are not, and answer 0A000
-- (feature_not_supported): there the columns keep pglz, and this migration
-- still succeeds, so one migration history serves both.
-- Prisma's schema language has no column compression: this lives here only.
DO $$
BEGIN
  ALTER TABLE "Incident" ALTER COLUMN snapshot SET COMPRESSION lz4;
  ALTER TABLE "IncidentChange" ALTER COLUMN snapshot SET COMPRESSION lz4;
  ALTER TABLE "ReceiverIncident" ALTER COLUMN snapshot SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available on this server: snapshots keep pglz compression';
END $$;
