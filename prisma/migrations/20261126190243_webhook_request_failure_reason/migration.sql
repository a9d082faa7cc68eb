-- AlterTable
ALTER TABLE "webhook_requests" ADD COLUMN     "failure_reason" TEXT;
