-- CreateTable
CREATE TABLE "SessionExchange" (
    "sessionId" TEXT NOT NULL,
    "completionId" TEXT NOT NULL,
    "notificationId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("sessionId", "completionId"),
    CONSTRAINT "SessionExchange_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "harness" TEXT NOT NULL,
    "nativeSessionId" TEXT NOT NULL,
    "ownerPersonId" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "completionId" TEXT NOT NULL DEFAULT '',
    "sourceGeneration" TEXT NOT NULL DEFAULT '0',
    "labelGeneration" TEXT NOT NULL DEFAULT '0',
    "namingFingerprint" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Session_ownerPersonId_fkey" FOREIGN KEY ("ownerPersonId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Session" ("completionId", "createdAt", "harness", "id", "label", "labelGeneration", "nativeSessionId", "ownerPersonId", "sourceGeneration") SELECT "completionId", "createdAt", "harness", "id", "label", "labelGeneration", "nativeSessionId", "ownerPersonId", "sourceGeneration" FROM "Session";
DROP TABLE "Session";
ALTER TABLE "new_Session" RENAME TO "Session";
CREATE INDEX "Session_ownerPersonId_idx" ON "Session"("ownerPersonId");
CREATE UNIQUE INDEX "Session_harness_nativeSessionId_key" ON "Session"("harness", "nativeSessionId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

