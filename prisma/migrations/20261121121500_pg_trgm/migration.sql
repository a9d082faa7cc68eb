-- Trigram matching for the contacts' general search (search_value: ILIKE '%…%').
-- Trusted extension since PostgreSQL 13: the database owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
