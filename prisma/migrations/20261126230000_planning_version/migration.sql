-- The version of what the webhook planner reads besides the incident row: the integrations and
-- their accepted capabilities. Bumped in the transaction of every change to them that planning
-- can see (an integration added, removed or moved to another agency; a declaration's status,
-- major version or flags), and by a TRUNCATE. The aggregate's optimistic write applies only
-- while the version is the one its targets were read under (server/incidents/record-changes.ts),
-- so a change prepared from remembered targets (server/incidents/recent-incidents.ts) is never
-- planned against capabilities that have since moved. One row; a missing row reads as 0.
CREATE TABLE "PlanningVersion" (
  "id" INTEGER NOT NULL DEFAULT 1,
  "n" BIGINT NOT NULL,
  CONSTRAINT "PlanningVersion_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "PlanningVersion_one_row" CHECK ("id" = 1)
);
INSERT INTO "PlanningVersion" ("id", "n") VALUES (1, 1);

-- A row that was removed (a TRUNCATE of every table) comes back at the time in milliseconds, never
-- at a value a process may still remember.
CREATE FUNCTION "bump_planning_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "PlanningVersion" ("id", "n") VALUES (1, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
  ON CONFLICT ("id") DO UPDATE SET "n" = "PlanningVersion"."n" + 1;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Integration_planning_inserted_deleted" AFTER INSERT OR DELETE ON "Integration"
  FOR EACH ROW EXECUTE FUNCTION "bump_planning_version"();
CREATE TRIGGER "Integration_planning_updated" AFTER UPDATE ON "Integration"
  FOR EACH ROW WHEN (OLD."key" IS DISTINCT FROM NEW."key" OR OLD."agencyId" IS DISTINCT FROM NEW."agencyId")
  EXECUTE FUNCTION "bump_planning_version"();
CREATE TRIGGER "Integration_planning_truncated" AFTER TRUNCATE ON "Integration"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_planning_version"();

CREATE TRIGGER "WebhookCapabilities_planning_inserted_deleted" AFTER INSERT OR DELETE ON "WebhookCapabilities"
  FOR EACH ROW EXECUTE FUNCTION "bump_planning_version"();
CREATE TRIGGER "WebhookCapabilities_planning_updated" AFTER UPDATE ON "WebhookCapabilities"
  FOR EACH ROW WHEN (OLD."integrationKey" IS DISTINCT FROM NEW."integrationKey" OR OLD."status" IS DISTINCT FROM NEW."status"
    OR OLD."majorVersion" IS DISTINCT FROM NEW."majorVersion" OR OLD."flags" IS DISTINCT FROM NEW."flags")
  EXECUTE FUNCTION "bump_planning_version"();
CREATE TRIGGER "WebhookCapabilities_planning_truncated" AFTER TRUNCATE ON "WebhookCapabilities"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_planning_version"();
