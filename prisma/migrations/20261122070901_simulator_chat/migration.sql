-- CreateTable
CREATE TABLE "SimulatedChatMessage" (
    "id" UUID NOT NULL,
    "incidentId" UUID NOT NULL,
    "author" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "sentAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SimulatedChatMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SimulatedChatMessage_incidentId_sentAt_idx" ON "SimulatedChatMessage"("incidentId", "sentAt");

