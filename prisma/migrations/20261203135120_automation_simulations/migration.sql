-- CreateTable
CREATE TABLE "automation_simulations" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "automation_id" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "plan" JSONB NOT NULL,
    "from_date" TIMESTAMPTZ(3) NOT NULL,
    "to_date" TIMESTAMPTZ(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'RUNNING',
    "events_done" INTEGER NOT NULL DEFAULT 0,
    "events_total" INTEGER,
    "cursor" JSONB,
    "summary" JSONB NOT NULL DEFAULT '{}',
    "samples" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "requested_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "automation_simulations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "automation_simulations_organisation_id_automation_id_create_idx" ON "automation_simulations"("organisation_id", "automation_id", "created_at");

-- AddForeignKey
ALTER TABLE "automation_simulations" ADD CONSTRAINT "automation_simulations_automation_id_fkey" FOREIGN KEY ("automation_id") REFERENCES "automations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
