-- CreateTable
CREATE TABLE "integrations" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "settings" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "integrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "segments" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "filters" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "segments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "segment_contacts" (
    "organisation_id" UUID NOT NULL,
    "segment_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,

    CONSTRAINT "segment_contacts_pkey" PRIMARY KEY ("segment_id","contact_id")
);

-- CreateTable
CREATE TABLE "communication_templates" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "communication_templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "communication_template_contents" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "template_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "language" TEXT NOT NULL,
    "subject" TEXT,
    "rich_content" TEXT,
    "plain_content" TEXT,

    CONSTRAINT "communication_template_contents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "integrations_organisation_id_name_idx" ON "integrations"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "integrations_organisation_id_code_key" ON "integrations"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "segments_organisation_id_name_idx" ON "segments"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "segments_organisation_id_code_key" ON "segments"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "segment_contacts_contact_id_idx" ON "segment_contacts"("contact_id");

-- CreateIndex
CREATE INDEX "communication_templates_organisation_id_name_idx" ON "communication_templates"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "communication_templates_organisation_id_code_key" ON "communication_templates"("organisation_id", "code");

-- CreateIndex
CREATE UNIQUE INDEX "communication_template_contents_template_id_language_key" ON "communication_template_contents"("template_id", "language");

-- AddForeignKey
ALTER TABLE "segment_contacts" ADD CONSTRAINT "segment_contacts_segment_id_fkey" FOREIGN KEY ("segment_id") REFERENCES "segments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "segment_contacts" ADD CONSTRAINT "segment_contacts_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "communication_template_contents" ADD CONSTRAINT "communication_template_contents_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "communication_templates"("id") ON DELETE CASCADE ON UPDATE CASCADE;
