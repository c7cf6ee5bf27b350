-- AlterTable
ALTER TABLE "Incident" ADD COLUMN     "planEpoch" INTEGER NOT NULL DEFAULT 0;

-- DropTable
DROP TABLE "WebhookIncidentSnapshot";

