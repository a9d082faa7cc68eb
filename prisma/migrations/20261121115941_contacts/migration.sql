-- CreateTable
CREATE TABLE "contacts" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "contact_type" TEXT NOT NULL,
    "company_name" TEXT,
    "title" TEXT,
    "first_name" TEXT,
    "middle_name" TEXT,
    "last_name" TEXT,
    "preferred_language_code" TEXT,
    "statutory_number" TEXT,
    "notes" TEXT,
    "sms_opt_out" BOOLEAN NOT NULL DEFAULT false,
    "email_opt_out" BOOLEAN NOT NULL DEFAULT false,
    "affiliate_marketing" BOOLEAN NOT NULL DEFAULT false,
    "is_tax_exempt" BOOLEAN NOT NULL DEFAULT false,
    "category_id" UUID,
    "demographics" JSONB,
    "company_profile" JSONB,
    "industry_id" UUID,
    "industry_sector_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "referral_code" TEXT,
    "loyalty_identifier" TEXT,
    "consent_state" TEXT,
    "kyc_profile_id" UUID,
    "kyc_status" TEXT,
    "is_anonymized" BOOLEAN NOT NULL DEFAULT false,
    "anonymized_at" TIMESTAMPTZ(3),
    "search_text" TEXT NOT NULL DEFAULT '',
    "last_activity_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contacts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_addresses" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "address_type" TEXT,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,
    "care_of" TEXT,
    "address_line_1" TEXT,
    "address_line_2" TEXT,
    "state_province_county" TEXT,
    "town_city" TEXT,
    "postal_code" TEXT,
    "country_code" TEXT,
    "lat" DOUBLE PRECISION,
    "lon" DOUBLE PRECISION,
    "google_place_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contact_addresses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_phones" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "phone_type" TEXT,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,
    "country_code" TEXT,
    "number" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contact_phones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_emails" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "email_type" TEXT,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,
    "email_address" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contact_emails_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_custom_fields" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contact_custom_fields_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounts" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "number" TEXT NOT NULL,
    "name" TEXT,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'ACTIVE',
    "currency_code" TEXT NOT NULL,
    "classification_id" UUID,
    "credit_limit" DECIMAL(19,4),
    "credit_rating" TEXT,
    "is_tax_exempt" BOOLEAN NOT NULL DEFAULT false,
    "billing_address_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "contacts_organisation_id_created_at_idx" ON "contacts"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "contacts_category_id_idx" ON "contacts"("category_id");

-- CreateIndex
CREATE UNIQUE INDEX "contacts_organisation_id_code_key" ON "contacts"("organisation_id", "code");

-- CreateIndex
CREATE UNIQUE INDEX "contacts_organisation_id_statutory_number_key" ON "contacts"("organisation_id", "statutory_number");

-- CreateIndex
CREATE INDEX "contact_addresses_contact_id_idx" ON "contact_addresses"("contact_id");

-- CreateIndex
CREATE INDEX "contact_phones_contact_id_idx" ON "contact_phones"("contact_id");

-- CreateIndex
CREATE INDEX "contact_emails_contact_id_idx" ON "contact_emails"("contact_id");

-- CreateIndex
CREATE UNIQUE INDEX "contact_custom_fields_contact_id_key_key" ON "contact_custom_fields"("contact_id", "key");

-- CreateIndex
CREATE INDEX "accounts_contact_id_idx" ON "accounts"("contact_id");

-- CreateIndex
CREATE UNIQUE INDEX "accounts_organisation_id_number_key" ON "accounts"("organisation_id", "number");

-- AddForeignKey
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "contact_categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_industry_id_fkey" FOREIGN KEY ("industry_id") REFERENCES "industries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_kyc_profile_id_fkey" FOREIGN KEY ("kyc_profile_id") REFERENCES "kyc_profiles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_addresses" ADD CONSTRAINT "contact_addresses_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_phones" ADD CONSTRAINT "contact_phones_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_emails" ADD CONSTRAINT "contact_emails_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_custom_fields" ADD CONSTRAINT "contact_custom_fields_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_classification_id_fkey" FOREIGN KEY ("classification_id") REFERENCES "account_classifications"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_billing_address_id_fkey" FOREIGN KEY ("billing_address_id") REFERENCES "contact_addresses"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Case-insensitive filter indexes of GET /contacts (written by hand: Prisma's schema language
-- has no expression indexes; see docs/contacts.md).
CREATE INDEX "contacts_org_lower_code_idx" ON "contacts" ("organisation_id", lower("code"));
CREATE INDEX "contacts_org_lower_first_name_idx" ON "contacts" ("organisation_id", lower("first_name"));
CREATE INDEX "contacts_org_lower_last_name_idx" ON "contacts" ("organisation_id", lower("last_name"));
CREATE INDEX "contacts_org_lower_company_name_idx" ON "contacts" ("organisation_id", lower("company_name"));
CREATE INDEX "contacts_org_lower_loyalty_identifier_idx" ON "contacts" ("organisation_id", lower("loyalty_identifier"));
CREATE INDEX "contact_emails_org_lower_email_idx" ON "contact_emails" ("organisation_id", lower("email_address"));
CREATE INDEX "contact_phones_org_digits_idx" ON "contact_phones" ("organisation_id", regexp_replace("number", '\D', '', 'g'));
