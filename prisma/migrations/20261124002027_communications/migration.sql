-- CreateTable
CREATE TABLE "communications" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "contact_id" UUID NOT NULL,
    "channel" TEXT NOT NULL,
    "integration_id" UUID,
    "language" TEXT,
    "sender" TEXT,
    "recipient" TEXT,
    "subject" TEXT,
    "content" TEXT NOT NULL,
    "rich_content" TEXT,
    "template_id" UUID,
    "plan_id" UUID,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'PENDING',
    "failure_reason" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "is_viewed" BOOLEAN NOT NULL DEFAULT false,
    "viewed_on" TIMESTAMPTZ(3),
    "clicked_on" TIMESTAMPTZ(3),
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "communications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "communications_organisation_id_created_at_idx" ON "communications"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "communications_organisation_id_contact_id_created_at_idx" ON "communications"("organisation_id", "contact_id", "created_at");

-- CreateIndex
CREATE INDEX "communications_organisation_id_life_cycle_state_created_at_idx" ON "communications"("organisation_id", "life_cycle_state", "created_at");

-- CreateIndex
CREATE INDEX "communications_organisation_id_channel_created_at_idx" ON "communications"("organisation_id", "channel", "created_at");

-- CreateIndex
CREATE INDEX "communications_integration_id_idx" ON "communications"("integration_id");

-- CreateIndex
CREATE INDEX "communications_template_id_idx" ON "communications"("template_id");

-- AddForeignKey
ALTER TABLE "communications" ADD CONSTRAINT "communications_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "communications" ADD CONSTRAINT "communications_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "communications" ADD CONSTRAINT "communications_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "communication_templates"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
