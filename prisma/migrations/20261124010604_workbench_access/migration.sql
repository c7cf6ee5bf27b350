-- CreateEnum
CREATE TYPE "WorkbenchRole" AS ENUM ('admin', 'integrator', 'viewer');

-- CreateTable
CREATE TABLE "WorkbenchMember" (
    "id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "usernameKey" TEXT NOT NULL,
    "role" "WorkbenchRole" NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "disabledAt" TIMESTAMPTZ(3),

    CONSTRAINT "WorkbenchMember_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkbenchSession" (
    "idHash" TEXT NOT NULL,
    "memberId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "endedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WorkbenchSession_pkey" PRIMARY KEY ("idHash")
);

-- CreateTable
CREATE TABLE "WorkbenchApiToken" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "role" "WorkbenchRole" NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),
    "lastUsedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WorkbenchApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WorkbenchMember_usernameKey_key" ON "WorkbenchMember"("usernameKey");

-- CreateIndex
CREATE INDEX "WorkbenchSession_memberId_idx" ON "WorkbenchSession"("memberId");

-- CreateIndex
CREATE UNIQUE INDEX "WorkbenchApiToken_tokenHash_key" ON "WorkbenchApiToken"("tokenHash");

