-- AlterTable
ALTER TABLE "Notification" ADD COLUMN "dedupKey" TEXT;

-- CreateTable
CREATE TABLE "CompanionEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "engagementId" TEXT,
    "actorPersonId" TEXT,
    "occurredAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "idempotencyKey" TEXT,
    "listeners" TEXT NOT NULL DEFAULT '[]',
    "notificationIds" TEXT NOT NULL DEFAULT '[]',
    CONSTRAINT "CompanionEvent_engagementId_fkey" FOREIGN KEY ("engagementId") REFERENCES "Engagement" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ScannerLease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "cycleStart" DATETIME NOT NULL,
    "holder" TEXT NOT NULL,
    "claimedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RememberedFact" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "personId" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "engagementId" TEXT,
    "dateRules" TEXT NOT NULL DEFAULT '[]',
    "hasDates" BOOLEAN NOT NULL DEFAULT false,
    "datesVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RememberedFact_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RememberedFact_engagementId_fkey" FOREIGN KEY ("engagementId") REFERENCES "Engagement" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_RememberedFact" ("content", "createdAt", "id", "personId") SELECT "content", "createdAt", "id", "personId" FROM "RememberedFact";
DROP TABLE "RememberedFact";
ALTER TABLE "new_RememberedFact" RENAME TO "RememberedFact";
CREATE INDEX "RememberedFact_personId_createdAt_idx" ON "RememberedFact"("personId", "createdAt");
CREATE INDEX "RememberedFact_hasDates_id_idx" ON "RememberedFact"("hasDates", "id");
CREATE INDEX "RememberedFact_datesVersion_idx" ON "RememberedFact"("datesVersion");
CREATE INDEX "RememberedFact_engagementId_createdAt_idx" ON "RememberedFact"("engagementId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "CompanionEvent_idempotencyKey_key" ON "CompanionEvent"("idempotencyKey");

-- CreateIndex
CREATE INDEX "CompanionEvent_engagementId_receivedAt_idx" ON "CompanionEvent"("engagementId", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_dedupKey_key" ON "Notification"("dedupKey");

