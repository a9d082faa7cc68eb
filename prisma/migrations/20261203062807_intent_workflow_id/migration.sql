-- CreateIndex
CREATE INDEX "workflow_intents_workflow_id_idx" ON "workflow_intents"("workflow_id");
