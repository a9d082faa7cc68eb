-- DropIndex
DROP INDEX "purchase_products_purchase_id_quantity_idx";

-- DropIndex
DROP INDEX "purchases_organisation_id_performed_on_life_cycle_state_mer_idx";

-- AlterTable
ALTER TABLE "purchases" ADD COLUMN     "product_quantity" DECIMAL(19,4) NOT NULL DEFAULT 0;

-- Backfill: the purchases posted before the column existed.
UPDATE "purchases" p SET "product_quantity" = l.quantity
FROM (SELECT "purchase_id", sum("quantity") AS quantity FROM "purchase_products" GROUP BY "purchase_id") l
WHERE l."purchase_id" = p."id";

-- CreateIndex
CREATE INDEX "purchase_products_purchase_id_idx" ON "purchase_products"("purchase_id");

-- CreateIndex
CREATE INDEX "purchases_organisation_id_performed_on_life_cycle_state_mer_idx" ON "purchases"("organisation_id", "performed_on", "life_cycle_state", "merchant_unit_id", "outlet_unit_id", "id", "product_quantity");
