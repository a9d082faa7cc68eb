-- AlterTable (issue 34): a contact's custom field value becomes a JSON value, as the custom_fields
-- columns of the other records already are, so a DATE can be kept as a number (the epoch seconds
-- of its day) and answered as one without looking up its definition. Text is kept as a JSON
-- string; NULL stays NULL. (The generated DROP COLUMN + ADD COLUMN would have lost every value.)
ALTER TABLE "contact_custom_fields" ALTER COLUMN "value" SET DATA TYPE JSONB USING to_jsonb("value");
