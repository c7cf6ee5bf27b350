-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "AgencyType" AS ENUM ('Psap', 'Ems', 'Fire');

-- CreateTable
CREATE TABLE "Agency" (
    "id" UUID NOT NULL,
    "displayName" TEXT NOT NULL,
    "type" "AgencyType" NOT NULL,
    "area" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Agency_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgencyRelation" (
    "fromId" UUID NOT NULL,
    "toId" UUID NOT NULL,

    CONSTRAINT "AgencyRelation_pkey" PRIMARY KEY ("fromId","toId")
);

-- CreateTable
CREATE TABLE "Client" (
    "id" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "secretHash" TEXT,
    "scopes" TEXT[],
    "grantTypes" TEXT[],
    "redirectUris" TEXT[],
    "accessTokenLifetimeS" INTEGER NOT NULL DEFAULT 3600,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "secretRotatedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Client_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ClientAgency" (
    "clientId" TEXT NOT NULL,
    "agencyId" UUID NOT NULL,

    CONSTRAINT "ClientAgency_pkey" PRIMARY KEY ("clientId","agencyId")
);

-- CreateTable
CREATE TABLE "User" (
    "id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "role" TEXT,
    "agencyId" UUID NOT NULL,
    "canSignIn" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UserClient" (
    "userId" UUID NOT NULL,
    "clientId" TEXT NOT NULL,

    CONSTRAINT "UserClient_pkey" PRIMARY KEY ("userId","clientId")
);

-- CreateTable
CREATE TABLE "Integration" (
    "key" TEXT NOT NULL,
    "agencyId" UUID NOT NULL,
    "receiverUrl" TEXT NOT NULL,
    "contractVersion" INTEGER NOT NULL,
    "insecureDev" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Integration_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "WorkbenchClock" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "offsetMs" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WorkbenchClock_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "User_agencyId_idx" ON "User"("agencyId");

-- CreateIndex
CREATE INDEX "Integration_agencyId_idx" ON "Integration"("agencyId");

-- AddForeignKey
ALTER TABLE "AgencyRelation" ADD CONSTRAINT "AgencyRelation_fromId_fkey" FOREIGN KEY ("fromId") REFERENCES "Agency"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgencyRelation" ADD CONSTRAINT "AgencyRelation_toId_fkey" FOREIGN KEY ("toId") REFERENCES "Agency"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClientAgency" ADD CONSTRAINT "ClientAgency_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "Client"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ClientAgency" ADD CONSTRAINT "ClientAgency_agencyId_fkey" FOREIGN KEY ("agencyId") REFERENCES "Agency"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_agencyId_fkey" FOREIGN KEY ("agencyId") REFERENCES "Agency"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserClient" ADD CONSTRAINT "UserClient_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UserClient" ADD CONSTRAINT "UserClient_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "Client"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Integration" ADD CONSTRAINT "Integration_agencyId_fkey" FOREIGN KEY ("agencyId") REFERENCES "Agency"("id") ON DELETE CASCADE ON UPDATE CASCADE;

