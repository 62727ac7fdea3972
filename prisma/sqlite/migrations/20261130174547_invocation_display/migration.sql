-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ActionInvocation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "seq" INTEGER NOT NULL,
    "notificationId" TEXT NOT NULL,
    "notificationKey" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "plugin" TEXT NOT NULL,
    "actionId" TEXT NOT NULL,
    "targetActionId" TEXT NOT NULL,
    "fixedParams" TEXT,
    "values" TEXT,
    "state" TEXT NOT NULL,
    "presentation" TEXT NOT NULL DEFAULT 'BANNER',
    "variant" TEXT NOT NULL DEFAULT 'INFO',
    "message" TEXT,
    "createdAt" DATETIME NOT NULL,
    "acknowledgedAt" DATETIME
);
INSERT INTO "new_ActionInvocation" ("acknowledgedAt", "actionId", "createdAt", "fixedParams", "id", "message", "notificationId", "notificationKey", "personId", "plugin", "seq", "state", "targetActionId", "values") SELECT "acknowledgedAt", "actionId", "createdAt", "fixedParams", "id", "message", "notificationId", "notificationKey", "personId", "plugin", "seq", "state", "targetActionId", "values" FROM "ActionInvocation";
DROP TABLE "ActionInvocation";
ALTER TABLE "new_ActionInvocation" RENAME TO "ActionInvocation";
CREATE UNIQUE INDEX "ActionInvocation_seq_key" ON "ActionInvocation"("seq");
CREATE INDEX "ActionInvocation_plugin_seq_idx" ON "ActionInvocation"("plugin", "seq");
CREATE INDEX "ActionInvocation_state_seq_idx" ON "ActionInvocation"("state", "seq");
CREATE INDEX "ActionInvocation_notificationId_personId_seq_idx" ON "ActionInvocation"("notificationId", "personId", "seq");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

