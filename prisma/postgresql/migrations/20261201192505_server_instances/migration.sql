-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "serverInstanceId" TEXT;

-- CreateTable
CREATE TABLE "ServerInstance" (
    "id" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "heartbeatAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ServerInstance_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Notification_serverInstanceId_activeKey_idx" ON "Notification"("serverInstanceId", "activeKey");

