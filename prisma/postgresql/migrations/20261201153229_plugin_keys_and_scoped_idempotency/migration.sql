-- DropIndex
DROP INDEX "CompanionEvent_idempotencyKey_key";

-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "plugin" TEXT;

-- AlterTable
ALTER TABLE "CompanionEvent" ADD COLUMN     "bodyDigest" TEXT,
ADD COLUMN     "producerId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "CompanionEvent_producerId_idempotencyKey_key" ON "CompanionEvent"("producerId", "idempotencyKey");

