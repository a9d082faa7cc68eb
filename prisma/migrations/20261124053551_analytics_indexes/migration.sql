-- DropIndex
DROP INDEX "purchase_products_purchase_id_idx";

-- DropIndex
DROP INDEX "purchases_organisation_id_performed_on_idx";

-- CreateIndex
CREATE INDEX "purchase_products_purchase_id_quantity_idx" ON "purchase_products"("purchase_id", "quantity");

-- CreateIndex
CREATE INDEX "purchases_organisation_id_performed_on_life_cycle_state_mer_idx" ON "purchases"("organisation_id", "performed_on", "life_cycle_state", "merchant_unit_id", "outlet_unit_id", "id");

-- CreateIndex
CREATE INDEX "wallet_transactions_organisation_id_transaction_date_life_c_idx" ON "wallet_transactions"("organisation_id", "transaction_date", "life_cycle_state", "classification", "reward_offer_id", "purchase_id");

-- CreateIndex
CREATE INDEX "wallets_organisation_id_created_at_idx" ON "wallets"("organisation_id", "created_at");
