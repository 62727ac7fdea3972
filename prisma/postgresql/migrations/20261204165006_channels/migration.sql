-- CreateTable
CREATE TABLE "Channel" (
    "id" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "minSeverity" INTEGER NOT NULL DEFAULT 0,
    "scopes" TEXT NOT NULL DEFAULT 'APPLICATION,SESSION,PERSON',
    "delaySeconds" INTEGER NOT NULL DEFAULT 0,
    "failing" BOOLEAN NOT NULL DEFAULT false,
    "lastDeliveryAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Channel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChannelDelivery" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL,
    "sentAt" TIMESTAMP(3),

    CONSTRAINT "ChannelDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ActionToken" (
    "tokenHash" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "notificationId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "actionId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionToken_pkey" PRIMARY KEY ("tokenHash")
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

-- AddForeignKey
ALTER TABLE "Channel" ADD CONSTRAINT "Channel_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChannelDelivery" ADD CONSTRAINT "ChannelDelivery_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

