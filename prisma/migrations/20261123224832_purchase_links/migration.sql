-- AlterTable
ALTER TABLE "wallet_transactions" ADD COLUMN     "counterpart_id" UUID;

-- CreateIndex
CREATE INDEX "contact_phones_organisation_id_number_idx" ON "contact_phones"("organisation_id", "number");

-- CreateIndex
CREATE INDEX "contacts_organisation_id_loyalty_identifier_idx" ON "contacts"("organisation_id", "loyalty_identifier");

-- CreateIndex
CREATE INDEX "payment_methods_organisation_id_fingerprint_idx" ON "payment_methods"("organisation_id", "fingerprint");
