-- CreateTable
CREATE TABLE "merchant_creatives" (
    "id" UUID NOT NULL,
    "organisation_id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "format" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "public_id" TEXT,
    "srcset" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "merchant_creatives_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "merchant_creatives_organisation_id_created_at_idx" ON "merchant_creatives"("organisation_id", "created_at");

-- CreateIndex
CREATE INDEX "merchant_creatives_merchant_id_idx" ON "merchant_creatives"("merchant_id");

-- AddForeignKey
ALTER TABLE "merchant_creatives" ADD CONSTRAINT "merchant_creatives_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "network_units"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
