// What each workflow is started with and answers, and its workflow id: one place read by the
// workflows, the activities, the API and the outbox dispatcher. No imports at all, so the
// workflow sandbox may load it and no layer drags another in through it. Inputs carry ids only
// (docs/security.md "Workflows and personal data"): the activities load the rows.

/**
 * The start of each workflow's id, before its business key: the id functions below build on it,
 * and the reconciler reads the key after it (src/temporal/settlements.ts).
 */
export const ID_PREFIX = {
  automationRunWorkflow: 'automation-run:',
  webhookDeliveryWorkflow: 'webhook-request:',
  communicationSendWorkflow: 'communication:',
  communicationPlanWorkflow: 'communication-plan:',
  reportRunWorkflow: 'report-run:',
  walletTopupWorkflow: 'wallet-topup:',
  accountTerminationWorkflow: 'account-termination:',
  automationSimulationWorkflow: 'automation-simulation:',
} as const satisfies { [T in keyof WorkflowInputs]: string };

/** automationRunWorkflow: one per automation and outbox event (docs/automations.md "Runs"). */
export const automationRunWorkflowId = (automationId: string, eventId: string) => `${ID_PREFIX.automationRunWorkflow}${automationId}:${eventId}`;

export interface AutomationRunInput {
  organisationId: string;
  automationId: string;
  eventId: string;
}

export interface StepResult {
  recordId: string;
  status: string;
  /** Why a SKIPPED or FAILED step did not do its work (the record's `reason`): visible in the run's result. */
  reason?: string;
}

export interface AutomationRunResult {
  /** COMPLETED: every action ran or was skipped; STOPPED: a rejection or a failure ended it; GONE: the automation was deleted. */
  status: 'COMPLETED' | 'STOPPED' | 'GONE';
  steps: Array<{ actionId: string; adaptorAction: string } & StepResult>;
}

/** automationSimulationWorkflow: one per HISTORY simulation (docs/automations.md "Simulations"). */
export const simulationWorkflowId = (simulationId: string) => `${ID_PREFIX.automationSimulationWorkflow}${simulationId}`;

export interface SimulationRef {
  organisationId: string;
  simulationId: string;
}

/** How the replay ended: its row's state (COMPLETED, CANCELLED, FAILED), or ALREADY_DONE for a row settled before. */
export type SimulationOutcome = 'COMPLETED' | 'CANCELLED' | 'FAILED' | 'ALREADY_DONE';

/** The approvalDecided signal's argument. */
export interface ApprovalDecision {
  recordId: string;
  status: 'APPROVED' | 'REJECTED';
}

/** webhookDeliveryWorkflow: one per webhook request (docs/webhooks.md "Delivery"). */
export const webhookRequestWorkflowId = (requestId: string) => `${ID_PREFIX.webhookDeliveryWorkflow}${requestId}`;

export interface WebhookDeliveryInput {
  organisationId: string;
  requestId: string;
  /**
   * Delay before each attempt, in ms (WEBHOOK_RETRY_SCHEDULE when the request was written): the
   * first is usually 0. Absent for requests the migration to intents found waiting: the workflow
   * reads the configured schedule.
   */
  scheduleMs?: number[];
}

export type WebhookRequestState = 'PENDING' | 'SUCCESS' | 'FAILED';

/** communicationSendWorkflow: one per single communication (docs/communications.md). */
export const communicationWorkflowId = (communicationId: string) => `${ID_PREFIX.communicationSendWorkflow}${communicationId}`;

export interface SendCommunicationInput {
  organisationId: string;
  communicationId: string;
  /** The workflow's retry policy's maximum attempts: the last one marks the row FAILED. */
  maximumAttempts?: number;
}

export type SendOutcome = 'SENT' | 'FAILED' | 'ALREADY_DONE';

/** communicationPlanWorkflow: one per POSTED plan, woken by planChanged (docs/communications.md "Plans"). */
export const planWorkflowId = (planId: string) => `${ID_PREFIX.communicationPlanWorkflow}${planId}`;

export interface PlanRef {
  organisationId: string;
  planId: string;
}

export type CommunicationPlanInput = PlanRef & { lastTick?: number | null };

/** reportRunWorkflow: one per report run (docs/reports.md "Run"). */
export const reportRunWorkflowId = (runId: string) => `${ID_PREFIX.reportRunWorkflow}${runId}`;

export interface ReportRunRef {
  organisationId: string;
  runId: string;
}

export type ReportRunOutcome = 'SENT' | 'FAILED' | 'ALREADY_DONE';

/** walletTopupWorkflow: one per debit that left a wallet under its threshold (docs/money.md "Auto top-up"). */
export const topupWorkflowId = (causeId: string) => `${ID_PREFIX.walletTopupWorkflow}${causeId}`;

export interface TopupInput {
  organisationId: string;
  /** The debit transaction that left the wallet under its threshold. */
  causeId: string;
  /** The debited wallet's currency: the charge's. */
  currencyCode: string;
}

export type TopupOutcome = 'CREDITED' | 'DECLINED' | 'NOT_NEEDED';

/** accountTerminationWorkflow: one per account (docs/money.md "Termination"). */
export const terminationWorkflowId = (accountId: string) => `${ID_PREFIX.accountTerminationWorkflow}${accountId}`;

export interface TerminationInput {
  organisationId: string;
  accountId: string;
  targetAccountId: string;
  actor: { type: 'api_key' | 'user' | 'system'; id: string; requestId?: string };
}

/** The Schedules' workflows (src/temporal/schedules.ts) take no input; their ids are the schedules'. */
export const LEDGER_EXPIRY_ID = 'ledger-expiry';
export const RETENTION_ID = 'retention';

/**
 * What each workflow a committed write may ask for is started with, by its type name (the
 * intents' workflow_type): src/temporal/registry.ts types every intent by this map, and
 * test/unit/workflow-contracts.test.ts holds each workflow to it.
 */
export interface WorkflowInputs {
  automationRunWorkflow: AutomationRunInput;
  webhookDeliveryWorkflow: WebhookDeliveryInput;
  communicationSendWorkflow: SendCommunicationInput;
  communicationPlanWorkflow: CommunicationPlanInput;
  reportRunWorkflow: ReportRunRef;
  walletTopupWorkflow: TopupInput;
  accountTerminationWorkflow: TerminationInput;
  automationSimulationWorkflow: SimulationRef;
}

/** The signals a committed write may send, by name, with their arguments. */
export interface SignalArgs {
  /** POST .../REQUEST_APPROVAL/records/{id} with the decision it commits. */
  approvalDecided: [ApprovalDecision];
  /** Any write to a plan: the plan's workflow re-reads it. */
  planChanged: [];
}

export const SIGNAL_NAMES: { readonly [S in keyof SignalArgs]: S } = { approvalDecided: 'approvalDecided', planChanged: 'planChanged' };
