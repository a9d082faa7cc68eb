-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "custom_fields" JSONB;

-- AlterTable
ALTER TABLE "organisation_settings" ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- AlterTable
ALTER TABLE "purchases" ADD COLUMN     "custom_fields" JSONB;

-- CreateTable
CREATE TABLE "custom_field_definitions" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "entity" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "type" TEXT NOT NULL,
    "allowed_values" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "custom_field_definitions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "report_runs" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "report" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "requested_by" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'PENDING',
    "row_count" INTEGER,
    "byte_count" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "report_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "custom_field_definitions_organisation_id_entity_key_key" ON "custom_field_definitions"("organisation_id", "entity", "key");

-- CreateIndex
CREATE INDEX "report_runs_organisation_id_created_at_idx" ON "report_runs"("organisation_id", "created_at");
