-- AlterTable
ALTER TABLE "ActionInvocation" ADD COLUMN "display" TEXT;
ALTER TABLE "ActionInvocation" ADD COLUMN "uiEffects" TEXT;

