-- CreateTable
CREATE TABLE "ActionInvocation" (
    "id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "notificationId" TEXT NOT NULL,
    "notificationKey" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "plugin" TEXT NOT NULL,
    "actionId" TEXT NOT NULL,
    "targetActionId" TEXT NOT NULL,
    "fixedParams" TEXT,
    "values" TEXT,
    "state" TEXT NOT NULL,
    "message" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "acknowledgedAt" TIMESTAMP(3),

    CONSTRAINT "ActionInvocation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ActionInvocation_seq_key" ON "ActionInvocation"("seq");

-- CreateIndex
CREATE INDEX "ActionInvocation_plugin_seq_idx" ON "ActionInvocation"("plugin", "seq");

-- CreateIndex
CREATE INDEX "ActionInvocation_state_seq_idx" ON "ActionInvocation"("state", "seq");

-- CreateIndex
CREATE INDEX "ActionInvocation_notificationId_personId_seq_idx" ON "ActionInvocation"("notificationId", "personId", "seq");

