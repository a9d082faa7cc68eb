-- CreateTable
CREATE TABLE "workflow_intents" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "workflow_type" TEXT,
    "workflow_id" TEXT NOT NULL,
    "input" JSONB,
    "search_attributes" JSONB,
    "signal_name" TEXT,
    "signal_args" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatched_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "claimed_until" TIMESTAMPTZ(3),

    CONSTRAINT "workflow_intents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workflow_intents_dispatched_at_created_at_idx" ON "workflow_intents"("dispatched_at", "created_at");

-- One-time backfill (issue 22): before this table, webhook deliveries and plans were started after
-- their commit and again by a rescan at every start, single communications and report runs only
-- after their commit. Every record that may still lack its workflow gets an intent: one whose
-- workflow runs or ran already makes the start a no-op ("already started" is done), and a plan's
-- signal-with-start only wakes a running one. Webhook deliveries carry no retry schedule here:
-- the workflow reads the configured one (src/workflows/webhooks.ts).
INSERT INTO "workflow_intents" ("id", "organisation_id", "kind", "workflow_type", "workflow_id", "input", "search_attributes")
SELECT gen_random_uuid(), "organisation_id", 'start', 'webhookDeliveryWorkflow', 'webhook-request:' || "id",
  jsonb_build_object('organisationId', "organisation_id", 'requestId', "id"),
  jsonb_strip_nulls(jsonb_build_object('organisationId', "organisation_id", 'automationId', "automation_id", 'entityType', "entity_type", 'entityId', "entity_id"))
FROM "webhook_requests" WHERE "state" = 'PENDING';

INSERT INTO "workflow_intents" ("id", "organisation_id", "kind", "workflow_type", "workflow_id", "input", "search_attributes", "signal_name", "signal_args")
SELECT gen_random_uuid(), "organisation_id", 'signalWithStart', 'communicationPlanWorkflow', 'communication-plan:' || "id",
  jsonb_build_object('organisationId', "organisation_id", 'planId', "id"),
  jsonb_build_object('organisationId', "organisation_id", 'entityType', 'COMMUNICATION_PLANS', 'entityId', "id"),
  'planChanged', '[]'::jsonb
FROM "communication_plans" WHERE "life_cycle_state" = 'POSTED';

-- A plan's communications are sent by the plan's workflow, not one each.
INSERT INTO "workflow_intents" ("id", "organisation_id", "kind", "workflow_type", "workflow_id", "input", "search_attributes")
SELECT gen_random_uuid(), "organisation_id", 'start', 'communicationSendWorkflow', 'communication:' || "id",
  jsonb_build_object('organisationId', "organisation_id", 'communicationId', "id"),
  jsonb_build_object('organisationId', "organisation_id", 'entityType', 'COMMUNICATIONS', 'entityId', "id")
FROM "communications" WHERE "life_cycle_state" = 'PENDING' AND "plan_id" IS NULL;

INSERT INTO "workflow_intents" ("id", "organisation_id", "kind", "workflow_type", "workflow_id", "input", "search_attributes")
SELECT gen_random_uuid(), "organisation_id", 'start', 'reportRunWorkflow', 'report-run:' || "id",
  jsonb_build_object('organisationId', "organisation_id", 'runId', "id"),
  jsonb_build_object('organisationId', "organisation_id", 'entityType', 'REPORT_RUNS', 'entityId', "id")
FROM "report_runs" WHERE "state" IN ('PENDING', 'RUNNING');
