-- Outbound addresses are the operator's decision (OUTBOUND_ALLOW_CIDRS), never a tenant setting.
-- AlterTable
ALTER TABLE "organisation_settings" DROP COLUMN "allow_private_webhook_endpoints";
