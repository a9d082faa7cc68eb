-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "terminating_to_account_id" UUID;
