-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "balance" DECIMAL(19,4) NOT NULL DEFAULT 0,
ADD COLUMN     "terminated_at" TIMESTAMPTZ(3),
ADD COLUMN     "terminated_to_account_id" UUID;

-- CreateTable
CREATE TABLE "account_members" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "group_account_id" UUID NOT NULL,
    "member_account_id" UUID NOT NULL,
    "funding_scope" TEXT NOT NULL,
    "product_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "product_type_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "product_family_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_members_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "wallets" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "currency_code" TEXT NOT NULL,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'EFFECTIVE',
    "minimum_balance" DECIMAL(19,4),
    "limit_rules" JSONB,
    "auto_topup" JSONB,
    "custom_fields" JSONB,
    "balance" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "uncovered" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "wallets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "wallet_transactions" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "number" BIGSERIAL NOT NULL,
    "contact_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "wallet_id" UUID,
    "classification" TEXT NOT NULL,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'POSTED',
    "amount" DECIMAL(19,4) NOT NULL,
    "description" TEXT,
    "spend_condition_id" UUID,
    "transaction_date" TIMESTAMPTZ(3) NOT NULL,
    "expiration_date" TIMESTAMPTZ(3),
    "created_by" TEXT NOT NULL,
    "voided_by_id" UUID,
    "custom_fields" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "wallet_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "transaction_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "wallet_id" UUID,
    "amount" DECIMAL(19,4) NOT NULL,
    "uncovered" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "cause" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "compensates_entry_id" UUID,
    "spend_condition_id" UUID,
    "valid_from" TIMESTAMPTZ(3),
    "valid_to" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lots" (
    "entry_id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "wallet_id" UUID NOT NULL,
    "spend_condition_id" UUID,
    "valid_from" TIMESTAMPTZ(3),
    "valid_to" TIMESTAMPTZ(3),
    "amount" DECIMAL(19,4) NOT NULL,
    "covered" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "remaining" DECIMAL(19,4) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lots_pkey" PRIMARY KEY ("entry_id")
);

-- CreateTable
CREATE TABLE "lot_consumptions" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "debit_entry_id" UUID NOT NULL,
    "lot_entry_id" UUID NOT NULL,
    "amount" DECIMAL(19,4) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lot_consumptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_members_member_account_id_key" ON "account_members"("member_account_id");

-- CreateIndex
CREATE INDEX "account_members_group_account_id_idx" ON "account_members"("group_account_id");

-- CreateIndex
CREATE INDEX "wallets_account_id_idx" ON "wallets"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "wallets_organisation_id_code_key" ON "wallets"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "wallet_transactions_organisation_id_contact_id_created_at_idx" ON "wallet_transactions"("organisation_id", "contact_id", "created_at");

-- CreateIndex
CREATE INDEX "wallet_transactions_wallet_id_classification_created_at_idx" ON "wallet_transactions"("wallet_id", "classification", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "wallet_transactions_number_key" ON "wallet_transactions"("number");

-- CreateIndex
CREATE INDEX "ledger_entries_transaction_id_idx" ON "ledger_entries"("transaction_id");

-- CreateIndex
CREATE INDEX "ledger_entries_account_id_created_at_idx" ON "ledger_entries"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_wallet_id_idempotency_key_key" ON "ledger_entries"("wallet_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "lots_wallet_id_remaining_idx" ON "lots"("wallet_id", "remaining");

-- CreateIndex
CREATE INDEX "lots_valid_to_idx" ON "lots"("valid_to");

-- CreateIndex
CREATE INDEX "lot_consumptions_debit_entry_id_idx" ON "lot_consumptions"("debit_entry_id");

-- CreateIndex
CREATE INDEX "lot_consumptions_lot_entry_id_idx" ON "lot_consumptions"("lot_entry_id");

-- AddForeignKey
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_group_account_id_fkey" FOREIGN KEY ("group_account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_member_account_id_fkey" FOREIGN KEY ("member_account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "wallet_transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_compensates_entry_id_fkey" FOREIGN KEY ("compensates_entry_id") REFERENCES "ledger_entries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lots" ADD CONSTRAINT "lots_entry_id_fkey" FOREIGN KEY ("entry_id") REFERENCES "ledger_entries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lots" ADD CONSTRAINT "lots_wallet_id_fkey" FOREIGN KEY ("wallet_id") REFERENCES "wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lot_consumptions" ADD CONSTRAINT "lot_consumptions_debit_entry_id_fkey" FOREIGN KEY ("debit_entry_id") REFERENCES "ledger_entries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lot_consumptions" ADD CONSTRAINT "lot_consumptions_lot_entry_id_fkey" FOREIGN KEY ("lot_entry_id") REFERENCES "ledger_entries"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Written by hand (Prisma's schema language cannot express these; docs/money.md).
-- The receivable book (wallet_id IS NULL): one effect per idempotency key per account too.
CREATE UNIQUE INDEX "ledger_entries_account_book_idempotency_key" ON "ledger_entries"("account_id", "idempotency_key") WHERE "wallet_id" IS NULL;

-- Append-only: entries and lot consumptions are never changed or removed; a correction is a
-- new entry that compensates the old one.
CREATE FUNCTION "refuse_ledger_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are append-only: % on % refused', TG_OP, TG_TABLE_NAME USING ERRCODE = 'P0001';
END $$;
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "refuse_ledger_change"();
CREATE TRIGGER "lot_consumptions_append_only" BEFORE UPDATE OR DELETE ON "lot_consumptions" FOR EACH ROW EXECUTE FUNCTION "refuse_ledger_change"();
