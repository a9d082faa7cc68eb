-- CreateTable
CREATE TABLE "contact_credentials" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "contact_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_methods" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "notes" TEXT,
    "bank" JSONB,
    "iban" TEXT,
    "account_number" TEXT,
    "card_name" TEXT,
    "brand" TEXT,
    "masked_number" TEXT,
    "first6" TEXT,
    "last4" TEXT,
    "fingerprint" TEXT,
    "expiration_month" INTEGER,
    "expiration_year" INTEGER,
    "funding_type" TEXT,
    "classification" JSONB,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "holder" JSONB,
    "gateway_tokens" JSONB,
    "gateway_username" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "payment_methods_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "contact_credentials_contact_id_key" ON "contact_credentials"("contact_id");

-- CreateIndex
CREATE UNIQUE INDEX "contact_credentials_organisation_id_username_key" ON "contact_credentials"("organisation_id", "username");

-- CreateIndex
CREATE INDEX "payment_methods_organisation_id_contact_id_created_at_idx" ON "payment_methods"("organisation_id", "contact_id", "created_at");

-- AddForeignKey
ALTER TABLE "contact_credentials" ADD CONSTRAINT "contact_credentials_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
