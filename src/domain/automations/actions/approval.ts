// Request Approval (docs/automations.md "Runs", step 3): the run opens the record PENDING and
// waits, at most timeout_seconds, for a user's decision; rejected or timed out, it stops.
import { recordAttribute } from '../records';
import { defineAction, parameter, reference } from './define';

export const requestApproval = defineAction({
  code: 'REQUEST_APPROVAL',
  name: 'Request Approval',
  description: 'Waits until a user approves or rejects (the Approvals inbox); rejected or timed out, the actions after it do not run.',
  adaptors: ['APPROVAL_REQUESTS'],
  parameters: [
    parameter('timeout_seconds', 'TIMEOUT', 'INTEGER', false, 'How long the request waits for a decision before it is REJECTED.', { min: 1, max: 31_536_000, defaultValue: '604800' }),
    reference('approver_user_id', 'USER', 'user', false, 'The user who decides (informational).'),
    parameter('approval_entity_type', 'APPROVAL_ENTITY_TYPE', 'STRING', false, 'What is approved, shown on the record.', { max: 100 }),
  ],
  performer: {
    kind: 'approval',
    opened: ({ step: { parameters: p } }) => [
      recordAttribute('status', 'Status', 'STRING', 'PENDING'),
      // timeout_seconds always has a value: runPlanOf fills in the default.
      recordAttribute('timeout_on', 'Decide before', 'DATE', String(Math.floor(Date.now() / 1000) + Number(p.timeout_seconds))),
      ...(p.approver_user_id ? [recordAttribute('approver_user_id', 'Approver', 'STRING', p.approver_user_id)] : []),
      ...(p.approval_entity_type ? [recordAttribute('approval_entity_type', 'Entity type', 'STRING', p.approval_entity_type)] : []),
    ],
  },
});
