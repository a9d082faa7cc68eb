-- Webhook signing secrets stored in clear by Idempotency-Key records before they were sealed
-- (docs/security.md "Secrets in idempotency records"): cleared, so a replay of those (at most
-- 24 h old) answers secret_key null; GET /webhooks/{id} still shows the secret.
UPDATE "idempotency_records"
SET "response_body" = jsonb_set("response_body", '{secret_key}', 'null'::jsonb)
WHERE jsonb_typeof("response_body") = 'object' AND "response_body"->>'secret_key' LIKE 'whsec\_%';
