-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "readAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "NotificationReceipt" ADD COLUMN     "readAt" TIMESTAMP(3);

