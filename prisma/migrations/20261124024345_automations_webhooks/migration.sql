-- AlterTable
ALTER TABLE "organisation_settings" ADD COLUMN     "allow_private_webhook_endpoints" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "claimed_until" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "activities" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "description" TEXT,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'PENDING',
    "unit_id" UUID,
    "for_tenant" BOOLEAN NOT NULL DEFAULT false,
    "user_id" UUID,
    "entity_type" TEXT,
    "entity_id" UUID,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "activities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "departments" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "unit_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "departments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "department_members" (
    "organisation_id" UUID NOT NULL,
    "department_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "department_members_pkey" PRIMARY KEY ("department_id","user_id")
);

-- CreateTable
CREATE TABLE "user_roles" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "user_roles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "user_role_members" (
    "organisation_id" UUID NOT NULL,
    "role_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "user_role_members_pkey" PRIMARY KEY ("role_id","user_id")
);

-- CreateTable
CREATE TABLE "post_code_coverages" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "unit_id" UUID NOT NULL,
    "post_code" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_code_coverages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "automations" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'INACTIVE',
    "entity" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "automations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "automation_actions" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "automation_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "path" TEXT,
    "adaptor" TEXT NOT NULL,
    "adaptor_action" TEXT NOT NULL,
    "parameters" JSONB NOT NULL DEFAULT '[]',
    "filters" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "automation_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "adaptor_action_records" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "automation_id" UUID NOT NULL,
    "automation_name" TEXT NOT NULL,
    "action_id" UUID NOT NULL,
    "adaptor" TEXT NOT NULL,
    "adaptor_action" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "entity_reference" TEXT,
    "status" TEXT NOT NULL,
    "attributes" JSONB NOT NULL DEFAULT '[]',
    "workflow_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "adaptor_action_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "url_endpoint" TEXT NOT NULL,
    "url_auth" TEXT NOT NULL,
    "username" TEXT,
    "password" TEXT,
    "api_key" TEXT,
    "secret" TEXT NOT NULL,
    "secret_active_until" TIMESTAMPTZ(3),
    "previous_secret" TEXT,
    "previous_secret_active_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_requests" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "webhook_id" UUID,
    "webhook_name" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "url_endpoint" TEXT NOT NULL,
    "url_auth" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "body" JSONB NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'PENDING',
    "retries" INTEGER NOT NULL DEFAULT 0,
    "response_status" INTEGER,
    "response_body" TEXT,
    "automation_id" UUID,
    "automation_name" TEXT,
    "entity_type" TEXT,
    "entity_id" UUID,
    "entity_reference" TEXT,
    "call_id" UUID,
    "cause_key" TEXT NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "organisation_id" UUID NOT NULL,
    "request_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "response_body" TEXT,
    "error" TEXT,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("request_id","attempt")
);

-- CreateIndex
CREATE INDEX "activities_organisation_id_created_at_idx" ON "activities"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "activities_organisation_id_entity_type_entity_id_idx" ON "activities"("organisation_id", "entity_type", "entity_id");

-- CreateIndex
CREATE INDEX "activities_unit_id_idx" ON "activities"("unit_id");

-- CreateIndex
CREATE INDEX "activities_user_id_idx" ON "activities"("user_id");

-- CreateIndex
CREATE INDEX "departments_organisation_id_name_idx" ON "departments"("organisation_id", "name");

-- CreateIndex
CREATE INDEX "departments_unit_id_idx" ON "departments"("unit_id");

-- CreateIndex
CREATE UNIQUE INDEX "departments_organisation_id_code_key" ON "departments"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "department_members_user_id_idx" ON "department_members"("user_id");

-- CreateIndex
CREATE INDEX "user_roles_organisation_id_name_idx" ON "user_roles"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "user_roles_organisation_id_code_key" ON "user_roles"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "user_role_members_user_id_idx" ON "user_role_members"("user_id");

-- CreateIndex
CREATE INDEX "post_code_coverages_organisation_id_post_code_idx" ON "post_code_coverages"("organisation_id", "post_code");

-- CreateIndex
CREATE UNIQUE INDEX "post_code_coverages_organisation_id_unit_id_post_code_key" ON "post_code_coverages"("organisation_id", "unit_id", "post_code");

-- CreateIndex
CREATE INDEX "automations_organisation_id_entity_event_life_cycle_state_idx" ON "automations"("organisation_id", "entity", "event", "life_cycle_state");

-- CreateIndex
CREATE INDEX "automations_organisation_id_name_idx" ON "automations"("organisation_id", "name");

-- CreateIndex
CREATE INDEX "automations_organisation_id_created_at_idx" ON "automations"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "automation_actions_automation_id_position_idx" ON "automation_actions"("automation_id", "position");

-- CreateIndex
CREATE INDEX "adaptor_action_records_organisation_id_adaptor_adaptor_acti_idx" ON "adaptor_action_records"("organisation_id", "adaptor", "adaptor_action", "created_at");

-- CreateIndex
CREATE INDEX "adaptor_action_records_organisation_id_automation_id_idx" ON "adaptor_action_records"("organisation_id", "automation_id");

-- CreateIndex
CREATE INDEX "adaptor_action_records_organisation_id_entity_id_idx" ON "adaptor_action_records"("organisation_id", "entity_id");

-- CreateIndex
CREATE UNIQUE INDEX "adaptor_action_records_event_id_automation_id_action_id_key" ON "adaptor_action_records"("event_id", "automation_id", "action_id");

-- CreateIndex
CREATE INDEX "webhooks_organisation_id_name_idx" ON "webhooks"("organisation_id", "name");

-- CreateIndex
CREATE INDEX "webhooks_organisation_id_created_at_idx" ON "webhooks"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_requests_organisation_id_created_at_idx" ON "webhook_requests"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_requests_webhook_id_state_idx" ON "webhook_requests"("webhook_id", "state");

-- CreateIndex
CREATE INDEX "webhook_requests_organisation_id_call_id_idx" ON "webhook_requests"("organisation_id", "call_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_requests_organisation_id_cause_key_key" ON "webhook_requests"("organisation_id", "cause_key");

-- AddForeignKey
ALTER TABLE "activities" ADD CONSTRAINT "activities_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activities" ADD CONSTRAINT "activities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "departments" ADD CONSTRAINT "departments_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "department_members" ADD CONSTRAINT "department_members_department_id_fkey" FOREIGN KEY ("department_id") REFERENCES "departments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "department_members" ADD CONSTRAINT "department_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_role_members" ADD CONSTRAINT "user_role_members_role_id_fkey" FOREIGN KEY ("role_id") REFERENCES "user_roles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "user_role_members" ADD CONSTRAINT "user_role_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_code_coverages" ADD CONSTRAINT "post_code_coverages_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "network_units"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "automation_actions" ADD CONSTRAINT "automation_actions_automation_id_fkey" FOREIGN KEY ("automation_id") REFERENCES "automations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_requests" ADD CONSTRAINT "webhook_requests_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "webhook_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
