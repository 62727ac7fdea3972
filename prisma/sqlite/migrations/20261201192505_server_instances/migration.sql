-- AlterTable
ALTER TABLE "Notification" ADD COLUMN "serverInstanceId" TEXT;

-- CreateTable
CREATE TABLE "ServerInstance" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "startedAt" DATETIME NOT NULL,
    "heartbeatAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Notification_serverInstanceId_activeKey_idx" ON "Notification"("serverInstanceId", "activeKey");

