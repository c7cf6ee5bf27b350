-- AlterTable
ALTER TABLE "AuthorizationCode" ADD COLUMN     "refreshFamilyId" UUID;

