-- AlterTable
ALTER TABLE "communications" ADD COLUMN     "plan_tick" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "communication_plans" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3),
    "preferred_channel" TEXT NOT NULL,
    "frequency" TEXT NOT NULL,
    "contents" JSONB NOT NULL,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'DRAFT',
    "posted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "communication_plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "communication_plan_segments" (
    "organisation_id" UUID NOT NULL,
    "plan_id" UUID NOT NULL,
    "segment_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "communication_plan_segments_pkey" PRIMARY KEY ("plan_id","segment_id")
);

-- CreateTable
CREATE TABLE "communication_plan_integrations" (
    "organisation_id" UUID NOT NULL,
    "plan_id" UUID NOT NULL,
    "integration_id" UUID NOT NULL,
    "channel" TEXT NOT NULL,

    CONSTRAINT "communication_plan_integrations_pkey" PRIMARY KEY ("plan_id","integration_id")
);

-- CreateIndex
CREATE INDEX "communication_plans_organisation_id_name_idx" ON "communication_plans"("organisation_id", "name");

-- CreateIndex
CREATE INDEX "communication_plan_segments_segment_id_idx" ON "communication_plan_segments"("segment_id");

-- CreateIndex
CREATE INDEX "communication_plan_integrations_integration_id_idx" ON "communication_plan_integrations"("integration_id");

-- CreateIndex
CREATE UNIQUE INDEX "communication_plan_integrations_plan_id_channel_key" ON "communication_plan_integrations"("plan_id", "channel");

-- CreateIndex
CREATE UNIQUE INDEX "communications_plan_id_plan_tick_contact_id_key" ON "communications"("plan_id", "plan_tick", "contact_id");

-- AddForeignKey
ALTER TABLE "communications" ADD CONSTRAINT "communications_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "communication_plans"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "communication_plan_segments" ADD CONSTRAINT "communication_plan_segments_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "communication_plans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "communication_plan_segments" ADD CONSTRAINT "communication_plan_segments_segment_id_fkey" FOREIGN KEY ("segment_id") REFERENCES "segments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "communication_plan_integrations" ADD CONSTRAINT "communication_plan_integrations_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "communication_plans"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "communication_plan_integrations" ADD CONSTRAINT "communication_plan_integrations_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
