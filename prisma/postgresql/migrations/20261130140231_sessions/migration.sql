-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "namingFingerprint" TEXT NOT NULL DEFAULT '',
ALTER COLUMN "sourceGeneration" SET DEFAULT '0',
ALTER COLUMN "sourceGeneration" SET DATA TYPE TEXT,
ALTER COLUMN "labelGeneration" SET DEFAULT '0',
ALTER COLUMN "labelGeneration" SET DATA TYPE TEXT;

-- CreateTable
CREATE TABLE "SessionExchange" (
    "sessionId" TEXT NOT NULL,
    "completionId" TEXT NOT NULL,
    "notificationId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SessionExchange_pkey" PRIMARY KEY ("sessionId","completionId")
);

-- AddForeignKey
ALTER TABLE "SessionExchange" ADD CONSTRAINT "SessionExchange_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

