-- DropIndex
DROP INDEX "adaptor_action_records_organisation_id_automation_id_idx";

-- CreateIndex
CREATE INDEX "adaptor_action_records_organisation_id_automation_id_event__idx" ON "adaptor_action_records"("organisation_id", "automation_id", "event_id");
