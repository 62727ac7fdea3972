-- CreateTable
CREATE TABLE "Person" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "quietMode" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Credential" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "personId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" DATETIME,
    CONSTRAINT "Credential_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "harness" TEXT NOT NULL,
    "nativeSessionId" TEXT NOT NULL,
    "ownerPersonId" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "completionId" TEXT NOT NULL DEFAULT '',
    "sourceGeneration" BIGINT NOT NULL DEFAULT 0,
    "labelGeneration" BIGINT NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Session_ownerPersonId_fkey" FOREIGN KEY ("ownerPersonId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Engagement" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "operatorPersonId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Engagement_operatorPersonId_fkey" FOREIGN KEY ("operatorPersonId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EngagementMember" (
    "engagementId" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'CONTRIBUTOR',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("engagementId", "personId"),
    CONSTRAINT "EngagementMember_engagementId_fkey" FOREIGN KEY ("engagementId") REFERENCES "Engagement" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "EngagementMember_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RememberedFact" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "personId" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RememberedFact_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scope" TEXT NOT NULL,
    "personId" TEXT,
    "sessionId" TEXT,
    "key" TEXT NOT NULL,
    "activeKey" TEXT,
    "targetKey" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "lockVersion" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "sourcePlugin" TEXT NOT NULL,
    "sourceSubsystem" TEXT,
    "display" TEXT NOT NULL,
    "actions" TEXT NOT NULL DEFAULT '[]',
    "operation" TEXT,
    "operationId" TEXT,
    "uiEffects" TEXT,
    "retentionPolicy" TEXT NOT NULL,
    "expiresAt" DATETIME,
    "requestId" TEXT,
    "triggerType" TEXT NOT NULL,
    "triggerRef" TEXT,
    "engagementId" TEXT,
    "resolution" TEXT,
    "terminalReason" TEXT,
    "snoozedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME,
    "seenAt" DATETIME,
    "dismissedAt" DATETIME,
    "resolvedAt" DATETIME,
    "expiredAt" DATETIME,
    CONSTRAINT "Notification_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_engagementId_fkey" FOREIGN KEY ("engagementId") REFERENCES "Engagement" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NotificationReceipt" (
    "notificationId" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "deliveredAt" DATETIME,
    "seenAt" DATETIME,
    "dismissedAt" DATETIME,
    "dismissReason" TEXT,
    "snoozedUntil" DATETIME,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("notificationId", "personId"),
    CONSTRAINT "NotificationReceipt_notificationId_fkey" FOREIGN KEY ("notificationId") REFERENCES "Notification" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "NotificationReceipt_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NotificationEvent" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "personId" TEXT,
    "type" TEXT NOT NULL,
    "notificationId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "snapshot" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "EventCounter" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "value" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "ServerSetting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Credential_secretHash_key" ON "Credential"("secretHash");

-- CreateIndex
CREATE INDEX "Credential_personId_idx" ON "Credential"("personId");

-- CreateIndex
CREATE INDEX "Session_ownerPersonId_idx" ON "Session"("ownerPersonId");

-- CreateIndex
CREATE UNIQUE INDEX "Session_harness_nativeSessionId_key" ON "Session"("harness", "nativeSessionId");

-- CreateIndex
CREATE INDEX "Engagement_operatorPersonId_idx" ON "Engagement"("operatorPersonId");

-- CreateIndex
CREATE INDEX "EngagementMember_personId_idx" ON "EngagementMember"("personId");

-- CreateIndex
CREATE INDEX "RememberedFact_personId_createdAt_idx" ON "RememberedFact"("personId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_activeKey_key" ON "Notification"("activeKey");

-- CreateIndex
CREATE INDEX "Notification_personId_createdAt_id_idx" ON "Notification"("personId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Notification_scope_createdAt_id_idx" ON "Notification"("scope", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Notification_personId_status_idx" ON "Notification"("personId", "status");

-- CreateIndex
CREATE INDEX "Notification_requestId_status_idx" ON "Notification"("requestId", "status");

-- CreateIndex
CREATE INDEX "Notification_triggerRef_idx" ON "Notification"("triggerRef");

-- CreateIndex
CREATE INDEX "Notification_targetKey_key_createdAt_idx" ON "Notification"("targetKey", "key", "createdAt");

-- CreateIndex
CREATE INDEX "Notification_sessionId_createdAt_idx" ON "Notification"("sessionId", "createdAt");

-- CreateIndex
CREATE INDEX "Notification_engagementId_createdAt_idx" ON "Notification"("engagementId", "createdAt");

-- CreateIndex
CREATE INDEX "NotificationReceipt_personId_idx" ON "NotificationReceipt"("personId");

-- CreateIndex
CREATE INDEX "NotificationEvent_personId_seq_idx" ON "NotificationEvent"("personId", "seq");

