-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "mutedPlugins" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "quietHours" TEXT,
ADD COLUMN     "severityFloor" TEXT NOT NULL DEFAULT 'INFO';

-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "data" TEXT;

