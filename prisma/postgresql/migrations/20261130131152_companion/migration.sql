-- AlterTable
ALTER TABLE "RememberedFact" ADD COLUMN     "dateRules" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "datesVersion" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "engagementId" TEXT,
ADD COLUMN     "hasDates" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "dedupKey" TEXT;

-- CreateTable
CREATE TABLE "CompanionEvent" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "engagementId" TEXT,
    "actorPersonId" TEXT,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,
    "idempotencyKey" TEXT,
    "listeners" TEXT NOT NULL DEFAULT '[]',
    "notificationIds" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "CompanionEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScannerLease" (
    "name" TEXT NOT NULL,
    "cycleStart" TIMESTAMP(3) NOT NULL,
    "holder" TEXT NOT NULL,
    "claimedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ScannerLease_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "CompanionEvent_idempotencyKey_key" ON "CompanionEvent"("idempotencyKey");

-- CreateIndex
CREATE INDEX "CompanionEvent_engagementId_receivedAt_idx" ON "CompanionEvent"("engagementId", "receivedAt");

-- CreateIndex
CREATE INDEX "RememberedFact_hasDates_id_idx" ON "RememberedFact"("hasDates", "id");

-- CreateIndex
CREATE INDEX "RememberedFact_datesVersion_idx" ON "RememberedFact"("datesVersion");

-- CreateIndex
CREATE INDEX "RememberedFact_engagementId_createdAt_idx" ON "RememberedFact"("engagementId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_dedupKey_key" ON "Notification"("dedupKey");

-- AddForeignKey
ALTER TABLE "RememberedFact" ADD CONSTRAINT "RememberedFact_engagementId_fkey" FOREIGN KEY ("engagementId") REFERENCES "Engagement"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanionEvent" ADD CONSTRAINT "CompanionEvent_engagementId_fkey" FOREIGN KEY ("engagementId") REFERENCES "Engagement"("id") ON DELETE SET NULL ON UPDATE CASCADE;

