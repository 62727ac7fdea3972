-- AlterTable
ALTER TABLE "Notification" ADD COLUMN "data" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Person" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "quietMode" BOOLEAN NOT NULL DEFAULT false,
    "mutedPlugins" TEXT NOT NULL DEFAULT '[]',
    "severityFloor" TEXT NOT NULL DEFAULT 'INFO',
    "quietHours" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Person" ("createdAt", "id", "name", "quietMode") SELECT "createdAt", "id", "name", "quietMode" FROM "Person";
DROP TABLE "Person";
ALTER TABLE "new_Person" RENAME TO "Person";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

