-- CreateIndex
CREATE INDEX "Notification_snoozedUntil_idx" ON "Notification"("snoozedUntil");

-- CreateIndex
CREATE INDEX "NotificationReceipt_snoozedUntil_idx" ON "NotificationReceipt"("snoozedUntil");

