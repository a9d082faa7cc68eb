-- CreateTable
CREATE TABLE "organisation_settings" (
    "organisation_id" UUID NOT NULL,
    "system_currency_code" TEXT NOT NULL,
    "alternative_currency_code" TEXT,
    "alternative_currency_rate" DECIMAL(19,8),
    "credit_limit_min" DECIMAL(19,4),
    "credit_limit_max" DECIMAL(19,4),
    "default_wallet_minimum_balance" DECIMAL(19,4) NOT NULL,
    "limit_rules" JSONB NOT NULL DEFAULT '[]',
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "organisation_settings_pkey" PRIMARY KEY ("organisation_id")
);

-- CreateTable
CREATE TABLE "network_units" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "type" TEXT NOT NULL,
    "parent_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "network_units_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "network_locations" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "unit_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "address_line_1" TEXT,
    "address_line_2" TEXT,
    "state_province_county" TEXT,
    "town_city" TEXT,
    "postal_code" TEXT,
    "country_code" TEXT,
    "lat" DOUBLE PRECISION,
    "lon" DOUBLE PRECISION,
    "google_place_id" TEXT,

    CONSTRAINT "network_locations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "network_taps" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "unit_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "network_taps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_types" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "product_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_families" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "product_families_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "products" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "sku" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "product_type_id" UUID,
    "product_family_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "spend_conditions" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "code" TEXT,
    "name" TEXT NOT NULL,
    "timings" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "spend_conditions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "spend_condition_units" (
    "organisation_id" UUID NOT NULL,
    "spend_condition_id" UUID NOT NULL,
    "unit_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "spend_condition_units_pkey" PRIMARY KEY ("spend_condition_id","unit_id")
);

-- CreateTable
CREATE TABLE "spend_condition_products" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "spend_condition_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "id_type" TEXT NOT NULL,
    "product_family_id" UUID,
    "product_type_id" UUID,
    "product_id" UUID,

    CONSTRAINT "spend_condition_products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounting_periods" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'OPEN',
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "accounting_periods_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accounting_period_balances" (
    "organisation_id" UUID NOT NULL,
    "period_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "closing_balance" DECIMAL(19,4) NOT NULL,

    CONSTRAINT "accounting_period_balances_pkey" PRIMARY KEY ("period_id","account_id")
);

-- CreateIndex
CREATE INDEX "network_units_organisation_id_name_idx" ON "network_units"("organisation_id", "name");

-- CreateIndex
CREATE INDEX "network_units_parent_id_idx" ON "network_units"("parent_id");

-- CreateIndex
CREATE UNIQUE INDEX "network_units_organisation_id_code_key" ON "network_units"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "network_locations_unit_id_idx" ON "network_locations"("unit_id");

-- CreateIndex
CREATE INDEX "network_taps_unit_id_idx" ON "network_taps"("unit_id");

-- CreateIndex
CREATE UNIQUE INDEX "network_taps_organisation_id_code_key" ON "network_taps"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "product_types_organisation_id_name_idx" ON "product_types"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "product_types_organisation_id_code_key" ON "product_types"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "product_families_organisation_id_name_idx" ON "product_families"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "product_families_organisation_id_code_key" ON "product_families"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "products_organisation_id_name_idx" ON "products"("organisation_id", "name");

-- CreateIndex
CREATE INDEX "products_product_type_id_idx" ON "products"("product_type_id");

-- CreateIndex
CREATE INDEX "products_product_family_id_idx" ON "products"("product_family_id");

-- CreateIndex
CREATE UNIQUE INDEX "products_organisation_id_sku_key" ON "products"("organisation_id", "sku");

-- CreateIndex
CREATE INDEX "spend_conditions_organisation_id_name_idx" ON "spend_conditions"("organisation_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "spend_conditions_organisation_id_code_key" ON "spend_conditions"("organisation_id", "code");

-- CreateIndex
CREATE INDEX "spend_condition_units_unit_id_idx" ON "spend_condition_units"("unit_id");

-- CreateIndex
CREATE INDEX "spend_condition_products_spend_condition_id_idx" ON "spend_condition_products"("spend_condition_id");

-- CreateIndex
CREATE INDEX "spend_condition_products_product_family_id_idx" ON "spend_condition_products"("product_family_id");

-- CreateIndex
CREATE INDEX "spend_condition_products_product_type_id_idx" ON "spend_condition_products"("product_type_id");

-- CreateIndex
CREATE INDEX "spend_condition_products_product_id_idx" ON "spend_condition_products"("product_id");

-- CreateIndex
CREATE INDEX "accounting_periods_organisation_id_start_date_idx" ON "accounting_periods"("organisation_id", "start_date");

-- CreateIndex
CREATE INDEX "accounting_period_balances_account_id_idx" ON "accounting_period_balances"("account_id");

-- AddForeignKey
ALTER TABLE "network_units" ADD CONSTRAINT "network_units_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "network_locations" ADD CONSTRAINT "network_locations_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "network_units"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "network_taps" ADD CONSTRAINT "network_taps_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "network_units"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_product_type_id_fkey" FOREIGN KEY ("product_type_id") REFERENCES "product_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_product_family_id_fkey" FOREIGN KEY ("product_family_id") REFERENCES "product_families"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "spend_condition_units" ADD CONSTRAINT "spend_condition_units_spend_condition_id_fkey" FOREIGN KEY ("spend_condition_id") REFERENCES "spend_conditions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "spend_condition_units" ADD CONSTRAINT "spend_condition_units_unit_id_fkey" FOREIGN KEY ("unit_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "spend_condition_products" ADD CONSTRAINT "spend_condition_products_spend_condition_id_fkey" FOREIGN KEY ("spend_condition_id") REFERENCES "spend_conditions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "spend_condition_products" ADD CONSTRAINT "spend_condition_products_product_family_id_fkey" FOREIGN KEY ("product_family_id") REFERENCES "product_families"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "spend_condition_products" ADD CONSTRAINT "spend_condition_products_product_type_id_fkey" FOREIGN KEY ("product_type_id") REFERENCES "product_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "spend_condition_products" ADD CONSTRAINT "spend_condition_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "accounting_period_balances" ADD CONSTRAINT "accounting_period_balances_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "accounting_periods"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "accounting_period_balances" ADD CONSTRAINT "accounting_period_balances_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Written by hand: Prisma's schema language has no CHECK constraints. A spend condition's
-- product reference sets exactly the column its id_type names.
ALTER TABLE "spend_condition_products" ADD CONSTRAINT "spend_condition_products_one_reference_check" CHECK (
    ("id_type" = 'FAMILY' AND "product_family_id" IS NOT NULL AND "product_type_id" IS NULL AND "product_id" IS NULL)
    OR ("id_type" = 'TYPE' AND "product_type_id" IS NOT NULL AND "product_family_id" IS NULL AND "product_id" IS NULL)
    OR ("id_type" = 'PRODUCT' AND "product_id" IS NOT NULL AND "product_family_id" IS NULL AND "product_type_id" IS NULL)
);
