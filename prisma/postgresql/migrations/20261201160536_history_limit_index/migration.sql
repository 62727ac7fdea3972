-- CreateIndex
CREATE INDEX "Notification_targetKey_activeKey_createdAt_id_idx" ON "Notification"("targetKey", "activeKey", "createdAt", "id");

