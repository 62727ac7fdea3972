-- AlterTable
ALTER TABLE "ActionInvocation" ADD COLUMN     "display" TEXT,
ADD COLUMN     "uiEffects" TEXT;

