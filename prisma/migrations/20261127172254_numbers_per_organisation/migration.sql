-- DropIndex
DROP INDEX "wallet_transactions_number_key";

-- AlterTable
ALTER TABLE "purchases" ALTER COLUMN "number" DROP DEFAULT;
DROP SEQUENCE "purchases_number_seq";

-- AlterTable
ALTER TABLE "wallet_transactions" ALTER COLUMN "number" DROP DEFAULT;
DROP SEQUENCE "wallet_transactions_number_seq";

-- CreateIndex
CREATE UNIQUE INDEX "wallet_transactions_organisation_id_number_key" ON "wallet_transactions"("organisation_id", "number");

-- Numbers per organisation (docs/money.md "Numbers"). A wallet transaction's and a purchase's
-- number came from one sequence for the whole database, so the gaps between an organisation's
-- numbers told it how much every other tenant did. Each organisation now has a sequence of its
-- own per table, in the schema org_numbers (Prisma manages only public): no lock is shared
-- between two movements, and a gap is the organisation's own rolled-back write.
CREATE SCHEMA "org_numbers";

-- The organisation's sequences, starting after the numbers it already has. Its tables are found
-- where the migrations made them, whatever the caller's search_path (pg_restore empties it).
CREATE FUNCTION "org_numbers"."create_for"(org uuid) RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  hex text := replace(org::text, '-', '');
BEGIN
  EXECUTE format('CREATE SEQUENCE IF NOT EXISTS org_numbers.%I START %s', 'wallet_transactions_' || hex,
    (SELECT COALESCE(max("number"), 0) + 1 FROM "wallet_transactions" WHERE "organisation_id" = org));
  EXECUTE format('CREATE SEQUENCE IF NOT EXISTS org_numbers.%I START %s', 'purchases_' || hex,
    (SELECT COALESCE(max("number"), 0) + 1 FROM "purchases" WHERE "organisation_id" = org));
END $$;

SELECT "org_numbers"."create_for"("id") FROM "organisations";

-- Made with the organisation, whatever makes it (the admin command line, a test, a seed).
CREATE FUNCTION "org_numbers"."on_organisation"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM org_numbers.create_for(NEW.id);
  RETURN NEW;
END $$;
CREATE TRIGGER "numbers_per_organisation" AFTER INSERT ON "organisations"
  FOR EACH ROW EXECUTE FUNCTION "org_numbers"."on_organisation"();

-- A row without a number takes the next of its organisation's sequence for its table: every
-- insert (the ledger's statements, the purchase's, bulk seeds) stays as it was.
CREATE FUNCTION "org_numbers"."assign"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."number" IS NULL THEN
    NEW."number" := nextval(format('org_numbers.%I', TG_TABLE_NAME || '_' || replace(NEW.organisation_id::text, '-', ''))::regclass);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "number_per_organisation" BEFORE INSERT ON "wallet_transactions"
  FOR EACH ROW EXECUTE FUNCTION "org_numbers"."assign"();
CREATE TRIGGER "number_per_organisation" BEFORE INSERT ON "purchases"
  FOR EACH ROW EXECUTE FUNCTION "org_numbers"."assign"();
