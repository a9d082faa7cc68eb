-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "traceparent" TEXT;

-- AlterTable
ALTER TABLE "workflow_intents" ADD COLUMN     "traceparent" TEXT;
