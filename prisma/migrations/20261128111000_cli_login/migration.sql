-- AlterTable
ALTER TABLE "WorkbenchApiToken" ADD COLUMN     "memberId" UUID;

-- CreateTable
CREATE TABLE "WorkbenchCliGrant" (
    "codeHash" TEXT NOT NULL,
    "memberId" UUID NOT NULL,
    "role" "WorkbenchRole" NOT NULL,
    "codeChallenge" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "usedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WorkbenchCliGrant_pkey" PRIMARY KEY ("codeHash")
);

-- CreateIndex
CREATE INDEX "WorkbenchCliGrant_expiresAt_idx" ON "WorkbenchCliGrant"("expiresAt");

-- CreateIndex
CREATE INDEX "WorkbenchApiToken_memberId_idx" ON "WorkbenchApiToken"("memberId");

-- AddForeignKey
ALTER TABLE "WorkbenchApiToken" ADD CONSTRAINT "WorkbenchApiToken_memberId_fkey" FOREIGN KEY ("memberId") REFERENCES "WorkbenchMember"("id") ON DELETE CASCADE ON UPDATE CASCADE;

