-- Issue 34: a DATE custom field is kept and answered as the epoch seconds of its day at 00:00 UTC
-- (a JSON number), no longer as the text YYYY-MM-DD. This converts the values stored before, in
-- every table that holds custom fields, for the keys defined as DATE for that table's entity in
-- that organisation. Only a text that is a real calendar day is converted; anything else (a value
-- written before the definition existed, or under another type) stays as stored. Converting twice
-- changes nothing, and only rows with something to convert are written.
-- (test/custom-fields/dates.test.ts runs this file again over values written in the old form.)

-- The midnight-UTC epoch of a text YYYY-MM-DD that is a calendar day, else NULL, never an error.
-- The CASE keeps make_date from ever seeing a month or day out of range; the round trip through
-- to_char refuses 2023-02-29 (make_date + 28 days would be 2023-03-01).
CREATE OR REPLACE FUNCTION "custom_field_day_epoch"(text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN to_char(x.day, 'YYYY-MM-DD') = $1 THEN extract(epoch FROM x.day)::bigint END
  FROM (SELECT CASE WHEN $1 ~ '^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$' AND left($1, 4) <> '0000'
    THEN make_date(left($1, 4)::int, substr($1, 6, 2)::int, 1) + (right($1, 2)::int - 1) END AS day) x
$$;

-- A custom_fields column ($1, an array of {key, value}) with the DATE values of the organisation
-- ($2) and entity ($3) converted; every other item as it was, in its place.
CREATE OR REPLACE FUNCTION "custom_field_dates_epoch"(jsonb, uuid, text) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT COALESCE(jsonb_agg(CASE WHEN d."key" IS NOT NULL AND "custom_field_day_epoch"(e.item ->> 'value') IS NOT NULL
      THEN jsonb_set(e.item, '{value}', to_jsonb("custom_field_day_epoch"(e.item ->> 'value'))) ELSE e.item END ORDER BY e.n), '[]'::jsonb)
  FROM jsonb_array_elements($1) WITH ORDINALITY AS e(item, n)
  LEFT JOIN "custom_field_definitions" d ON d."organisation_id" = $2 AND d."entity" = $3 AND d."type" = 'DATE' AND d."key" = e.item ->> 'key'
$$;

UPDATE "contact_custom_fields" f SET "value" = to_jsonb("custom_field_day_epoch"(f."value" #>> '{}'))
FROM "custom_field_definitions" d
WHERE d."organisation_id" = f."organisation_id" AND d."entity" = 'CONTACTS' AND d."type" = 'DATE' AND d."key" = f."key"
  AND jsonb_typeof(f."value") = 'string' AND "custom_field_day_epoch"(f."value" #>> '{}') IS NOT NULL;

UPDATE "accounts" SET "custom_fields" = "custom_field_dates_epoch"("custom_fields", "organisation_id", 'ACCOUNTS')
WHERE jsonb_typeof("custom_fields") = 'array' AND "custom_fields" <> "custom_field_dates_epoch"("custom_fields", "organisation_id", 'ACCOUNTS');

UPDATE "wallets" SET "custom_fields" = "custom_field_dates_epoch"("custom_fields", "organisation_id", 'WALLETS')
WHERE jsonb_typeof("custom_fields") = 'array' AND "custom_fields" <> "custom_field_dates_epoch"("custom_fields", "organisation_id", 'WALLETS');

UPDATE "wallet_transactions" SET "custom_fields" = "custom_field_dates_epoch"("custom_fields", "organisation_id", 'WALLET_TRANSACTIONS')
WHERE jsonb_typeof("custom_fields") = 'array' AND "custom_fields" <> "custom_field_dates_epoch"("custom_fields", "organisation_id", 'WALLET_TRANSACTIONS');

UPDATE "vouchers" SET "custom_fields" = "custom_field_dates_epoch"("custom_fields", "organisation_id", 'VOUCHERS')
WHERE jsonb_typeof("custom_fields") = 'array' AND "custom_fields" <> "custom_field_dates_epoch"("custom_fields", "organisation_id", 'VOUCHERS');

UPDATE "purchases" SET "custom_fields" = "custom_field_dates_epoch"("custom_fields", "organisation_id", 'PURCHASES')
WHERE jsonb_typeof("custom_fields") = 'array' AND "custom_fields" <> "custom_field_dates_epoch"("custom_fields", "organisation_id", 'PURCHASES');

DROP FUNCTION "custom_field_dates_epoch"(jsonb, uuid, text);
DROP FUNCTION "custom_field_day_epoch"(text);
