-- AlterTable
ALTER TABLE "Notification" ADD COLUMN "readAt" DATETIME;

-- AlterTable
ALTER TABLE "NotificationReceipt" ADD COLUMN "readAt" DATETIME;

