-- AlterTable
ALTER TABLE "Integration" DROP COLUMN "contractVersion";

