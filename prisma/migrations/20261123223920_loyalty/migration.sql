-- AlterTable
ALTER TABLE "wallet_transactions" ADD COLUMN     "purchase_id" UUID,
ADD COLUMN     "reward_offer_id" UUID;

-- CreateTable
CREATE TABLE "reward_schemes" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "sign_up_option" TEXT NOT NULL,
    "sign_up_codes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "allowed_domains" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reward_schemes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reward_scheme_merchants" (
    "organisation_id" UUID NOT NULL,
    "scheme_id" UUID NOT NULL,
    "unit_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "reward_scheme_merchants_pkey" PRIMARY KEY ("scheme_id","unit_id")
);

-- CreateTable
CREATE TABLE "reward_tiers" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "period_value_units" DECIMAL(19,4) NOT NULL,
    "lifetime_value_units" DECIMAL(19,4) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reward_tiers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reward_offers" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "scheme_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'ACTIVE',
    "award_type" TEXT NOT NULL,
    "award_value" DECIMAL(19,4) NOT NULL,
    "minimum_purchase" DECIMAL(19,4),
    "spend_condition_id" UUID,
    "validity_period" INTEGER,
    "validity_uot" TEXT,
    "voucher_type_id" UUID,
    "valid_from" TIMESTAMPTZ(3),
    "valid_to" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reward_offers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reward_offer_products" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "offer_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "id_type" TEXT NOT NULL,
    "product_family_id" UUID,
    "product_type_id" UUID,
    "product_id" UUID,

    CONSTRAINT "reward_offer_products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reward_offer_merchants" (
    "organisation_id" UUID NOT NULL,
    "offer_id" UUID NOT NULL,
    "unit_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "reward_offer_merchants_pkey" PRIMARY KEY ("offer_id","unit_id")
);

-- CreateTable
CREATE TABLE "voucher_types" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "value_type" TEXT NOT NULL,
    "value" DECIMAL(19,4),
    "extra_added_value" DECIMAL(19,4),
    "minimum_value" DECIMAL(19,4),
    "maximum_value" DECIMAL(19,4),
    "currency_code" TEXT NOT NULL,
    "validity_period" INTEGER NOT NULL,
    "validity_uot" TEXT NOT NULL,
    "classification" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "voucher_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vouchers" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "contact_id" UUID NOT NULL,
    "voucher_type_id" UUID NOT NULL,
    "number" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'ACTIVATED',
    "classification" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "value" DECIMAL(19,4),
    "extra_added_value" DECIMAL(19,4),
    "minimum_value" DECIMAL(19,4),
    "maximum_value" DECIMAL(19,4),
    "currency_code" TEXT NOT NULL,
    "validity_period" INTEGER NOT NULL,
    "validity_uot" TEXT NOT NULL,
    "expiration_date" TIMESTAMPTZ(3) NOT NULL,
    "purchase_id" UUID,
    "used_at" TIMESTAMPTZ(3),
    "used_value" DECIMAL(19,4),
    "used_by" TEXT,
    "custom_fields" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "vouchers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_rewards" (
    "account_id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "signed_up_on" TIMESTAMPTZ(3),
    "signed_up_organisation_id" UUID,
    "spending_blocked" BOOLEAN NOT NULL DEFAULT false,
    "spending_blocked_at" TIMESTAMPTZ(3),
    "spending_blocked_by" TEXT,
    "auto_spend_enabled" BOOLEAN NOT NULL DEFAULT false,
    "auto_spend_preference" TEXT,
    "auto_spend_minimum_balance" DECIMAL(19,4),
    "auto_spend_from_amount" DECIMAL(19,4),
    "preferred_payment_method_id" UUID,
    "reward_tier_id" UUID,
    "lifetime_value_units" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "period_value_units" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "period_year" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_rewards_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "account_merchants" (
    "organisation_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "unit_id" UUID NOT NULL,
    "is_next_visit" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_merchants_pkey" PRIMARY KEY ("account_id","unit_id")
);

-- CreateTable
CREATE TABLE "account_reward_schemes" (
    "organisation_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "scheme_id" UUID NOT NULL,
    "signed_up_on" TIMESTAMPTZ(3) NOT NULL,
    "email_address" TEXT,
    "ended_on" TIMESTAMPTZ(3),

    CONSTRAINT "account_reward_schemes_pkey" PRIMARY KEY ("account_id","scheme_id")
);

-- CreateTable
CREATE TABLE "purchases" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "number" BIGSERIAL NOT NULL,
    "reference_number" TEXT NOT NULL,
    "contact_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "wallet_id" UUID,
    "classification_id" UUID,
    "payment_medium_identifier" TEXT,
    "performed_on" TIMESTAMPTZ(3) NOT NULL,
    "currency_code" TEXT NOT NULL,
    "net_amount" DECIMAL(19,4) NOT NULL,
    "tax_amount" DECIMAL(19,4) NOT NULL,
    "total_amount" DECIMAL(19,4) NOT NULL,
    "returned_amount" DECIMAL(19,4) NOT NULL DEFAULT 0,
    "value_units" DECIMAL(19,4) NOT NULL,
    "merchant_unit_id" UUID,
    "merchant_tap_id" UUID,
    "outlet_unit_id" UUID,
    "outlet_tap_id" UUID,
    "life_cycle_state" TEXT NOT NULL DEFAULT 'POSTED',
    "cancelled_at" TIMESTAMPTZ(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "purchases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchase_products" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "purchase_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "product_id" UUID,
    "sku" TEXT NOT NULL,
    "net_amount" DECIMAL(19,4) NOT NULL,
    "tax_amount" DECIMAL(19,4) NOT NULL,
    "total_amount" DECIMAL(19,4) NOT NULL,
    "quantity" DECIMAL(19,4) NOT NULL,

    CONSTRAINT "purchase_products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchase_classifications" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "purchase_classifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reward_schemes_organisation_id_name_idx" ON "reward_schemes"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "reward_schemes_organisation_id_code_key" ON "reward_schemes"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "reward_scheme_merchants_unit_id_idx" ON "reward_scheme_merchants"("unit_id");

-- CreateIndex
CREATE INDEX "reward_tiers_organisation_id_position_idx" ON "reward_tiers"("organisation_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "reward_tiers_organisation_id_code_key" ON "reward_tiers"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "reward_offers_organisation_id_name_idx" ON "reward_offers"("organisation_id", "name");

-- CreateIndex
CREATE INDEX "reward_offers_scheme_id_idx" ON "reward_offers"("scheme_id");

-- CreateIndex
CREATE UNIQUE INDEX "reward_offers_organisation_id_code_key" ON "reward_offers"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "reward_offer_products_offer_id_idx" ON "reward_offer_products"("offer_id");

-- CreateIndex
CREATE INDEX "reward_offer_products_product_family_id_idx" ON "reward_offer_products"("product_family_id");

-- CreateIndex
CREATE INDEX "reward_offer_products_product_type_id_idx" ON "reward_offer_products"("product_type_id");

-- CreateIndex
CREATE INDEX "reward_offer_products_product_id_idx" ON "reward_offer_products"("product_id");

-- CreateIndex
CREATE INDEX "reward_offer_merchants_unit_id_idx" ON "reward_offer_merchants"("unit_id");

-- CreateIndex
CREATE INDEX "voucher_types_organisation_id_name_idx" ON "voucher_types"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "voucher_types_organisation_id_code_key" ON "voucher_types"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "vouchers_organisation_id_contact_id_created_at_idx" ON "vouchers"("organisation_id", "contact_id", "created_at");

-- CreateIndex
CREATE INDEX "vouchers_organisation_id_created_at_idx" ON "vouchers"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "vouchers_purchase_id_idx" ON "vouchers"("purchase_id");

-- CreateIndex
CREATE UNIQUE INDEX "vouchers_organisation_id_number_key" ON "vouchers"("organisation_id", "number");

-- CreateIndex
CREATE INDEX "account_rewards_organisation_id_reward_tier_id_idx" ON "account_rewards"("organisation_id", "reward_tier_id");

-- CreateIndex
CREATE INDEX "account_merchants_unit_id_idx" ON "account_merchants"("unit_id");

-- CreateIndex
CREATE INDEX "account_reward_schemes_scheme_id_idx" ON "account_reward_schemes"("scheme_id");

-- CreateIndex
CREATE INDEX "purchases_organisation_id_performed_on_idx" ON "purchases"("organisation_id", "performed_on");

-- CreateIndex
CREATE INDEX "purchases_organisation_id_contact_id_performed_on_idx" ON "purchases"("organisation_id", "contact_id", "performed_on");

-- CreateIndex
CREATE INDEX "purchases_account_id_performed_on_idx" ON "purchases"("account_id", "performed_on");

-- CreateIndex
CREATE UNIQUE INDEX "purchases_organisation_id_number_key" ON "purchases"("organisation_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "purchases_organisation_id_reference_number_key" ON "purchases"("organisation_id", "reference_number");

-- CreateIndex
CREATE INDEX "purchase_products_purchase_id_idx" ON "purchase_products"("purchase_id");

-- CreateIndex
CREATE INDEX "purchase_products_product_id_idx" ON "purchase_products"("product_id");

-- CreateIndex
CREATE INDEX "purchase_classifications_organisation_id_name_idx" ON "purchase_classifications"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "purchase_classifications_organisation_id_code_key" ON "purchase_classifications"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "wallet_transactions_purchase_id_idx" ON "wallet_transactions"("purchase_id");

-- AddForeignKey
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_scheme_merchants" ADD CONSTRAINT "reward_scheme_merchants_scheme_id_fkey" FOREIGN KEY ("scheme_id") REFERENCES "reward_schemes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_scheme_merchants" ADD CONSTRAINT "reward_scheme_merchants_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_offers" ADD CONSTRAINT "reward_offers_scheme_id_fkey" FOREIGN KEY ("scheme_id") REFERENCES "reward_schemes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_offers" ADD CONSTRAINT "reward_offers_spend_condition_id_fkey" FOREIGN KEY ("spend_condition_id") REFERENCES "spend_conditions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_offers" ADD CONSTRAINT "reward_offers_voucher_type_id_fkey" FOREIGN KEY ("voucher_type_id") REFERENCES "voucher_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_offer_products" ADD CONSTRAINT "reward_offer_products_offer_id_fkey" FOREIGN KEY ("offer_id") REFERENCES "reward_offers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_offer_products" ADD CONSTRAINT "reward_offer_products_product_family_id_fkey" FOREIGN KEY ("product_family_id") REFERENCES "product_families"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_offer_products" ADD CONSTRAINT "reward_offer_products_product_type_id_fkey" FOREIGN KEY ("product_type_id") REFERENCES "product_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_offer_products" ADD CONSTRAINT "reward_offer_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_offer_merchants" ADD CONSTRAINT "reward_offer_merchants_offer_id_fkey" FOREIGN KEY ("offer_id") REFERENCES "reward_offers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "reward_offer_merchants" ADD CONSTRAINT "reward_offer_merchants_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_voucher_type_id_fkey" FOREIGN KEY ("voucher_type_id") REFERENCES "voucher_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_rewards" ADD CONSTRAINT "account_rewards_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_rewards" ADD CONSTRAINT "account_rewards_reward_tier_id_fkey" FOREIGN KEY ("reward_tier_id") REFERENCES "reward_tiers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_rewards" ADD CONSTRAINT "account_rewards_preferred_payment_method_id_fkey" FOREIGN KEY ("preferred_payment_method_id") REFERENCES "payment_methods"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_merchants" ADD CONSTRAINT "account_merchants_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_merchants" ADD CONSTRAINT "account_merchants_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_reward_schemes" ADD CONSTRAINT "account_reward_schemes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_reward_schemes" ADD CONSTRAINT "account_reward_schemes_scheme_id_fkey" FOREIGN KEY ("scheme_id") REFERENCES "reward_schemes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_classification_id_fkey" FOREIGN KEY ("classification_id") REFERENCES "purchase_classifications"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_merchant_unit_id_fkey" FOREIGN KEY ("merchant_unit_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_outlet_unit_id_fkey" FOREIGN KEY ("outlet_unit_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchase_products" ADD CONSTRAINT "purchase_products_purchase_id_fkey" FOREIGN KEY ("purchase_id") REFERENCES "purchases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "purchase_products" ADD CONSTRAINT "purchase_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
