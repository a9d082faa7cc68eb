-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "terminating_to_account_id" UUID;

-- Terminations the API asked for before the claim existed (their intents): the activities now act
-- only for a claimed target (docs/security.md "The engine's door"), so a run in flight across the
-- upgrade keeps its claim. The latest intent per account wins, as its run does.
UPDATE "accounts" a SET "terminating_to_account_id" = i.target
FROM (
  SELECT DISTINCT ON (organisation_id, workflow_id) organisation_id, workflow_id, (input->>'targetAccountId')::uuid AS target
  FROM "workflow_intents"
  WHERE workflow_type = 'accountTerminationWorkflow' AND input ? 'targetAccountId'
  ORDER BY organisation_id, workflow_id, created_at DESC
) i
WHERE a.organisation_id = i.organisation_id AND i.workflow_id = 'account-termination:' || a.id::text
  AND a.life_cycle_state <> 'TERMINATED' AND a.terminating_to_account_id IS NULL;
