-- AlterTable
ALTER TABLE "ActionInvocation" ADD COLUMN     "presentation" TEXT NOT NULL DEFAULT 'BANNER',
ADD COLUMN     "variant" TEXT NOT NULL DEFAULT 'INFO';

