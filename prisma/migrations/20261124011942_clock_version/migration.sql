-- AlterTable
ALTER TABLE "WorkbenchClock" ADD COLUMN     "version" BIGINT NOT NULL DEFAULT 0;

