-- AlterTable
ALTER TABLE "communications" ADD COLUMN     "holds_contact_data" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "public_key_id" UUID;

-- CreateTable
CREATE TABLE "communication_limits" (
    "organisation_id" UUID NOT NULL,
    "quotas" JSONB NOT NULL DEFAULT '[]',
    "public_plan_min_interval_minutes" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "communication_limits_pkey" PRIMARY KEY ("organisation_id")
);
