-- CreateIndex
CREATE INDEX "NotificationEvent_notificationId_idx" ON "NotificationEvent"("notificationId");

