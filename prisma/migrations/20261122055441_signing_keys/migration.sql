-- CreateTable
CREATE TABLE "SigningKey" (
    "kid" TEXT NOT NULL,
    "privateJwk" JSONB NOT NULL,
    "publicJwk" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "supersededAt" TIMESTAMPTZ(3),
    "retireAfter" TIMESTAMPTZ(3),

    CONSTRAINT "SigningKey_pkey" PRIMARY KEY ("kid")
);

