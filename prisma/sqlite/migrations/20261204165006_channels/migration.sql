-- CreateTable
CREATE TABLE "Channel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "personId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "minSeverity" INTEGER NOT NULL DEFAULT 0,
    "scopes" TEXT NOT NULL DEFAULT 'APPLICATION,SESSION,PERSON',
    "delaySeconds" INTEGER NOT NULL DEFAULT 0,
    "failing" BOOLEAN NOT NULL DEFAULT false,
    "lastDeliveryAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Channel_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChannelDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "channelId" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "notificationId" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "dueAt" BIGINT NOT NULL,
    "leaseHolder" TEXT,
    "leaseUntil" BIGINT,
    "createdAt" DATETIME NOT NULL,
    "sentAt" DATETIME,
    CONSTRAINT "ChannelDelivery_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ActionToken" (
    "tokenHash" TEXT NOT NULL PRIMARY KEY,
    "personId" TEXT NOT NULL,
    "notificationId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "actionId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "createdAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Channel_personId_idx" ON "Channel"("personId");

-- CreateIndex
CREATE UNIQUE INDEX "Channel_personId_url_key" ON "Channel"("personId", "url");

-- CreateIndex
CREATE INDEX "ChannelDelivery_status_dueAt_idx" ON "ChannelDelivery"("status", "dueAt");

-- CreateIndex
CREATE INDEX "ChannelDelivery_notificationId_personId_idx" ON "ChannelDelivery"("notificationId", "personId");

-- CreateIndex
CREATE INDEX "ChannelDelivery_createdAt_idx" ON "ChannelDelivery"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ChannelDelivery_channelId_notificationId_revision_key" ON "ChannelDelivery"("channelId", "notificationId", "revision");

-- CreateIndex
CREATE INDEX "ActionToken_expiresAt_idx" ON "ActionToken"("expiresAt");

