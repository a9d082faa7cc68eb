// What an automation action is (docs/automations.md "Catalogue", "What each adaptor does"): one
// declaration holds its code, name and description, its parameters and their rules, the adaptors
// that carry it, and how a run performs it. ../catalogue.ts publishes the declarations of
// ./index.ts, and the run (src/activities/automations.ts) performs them by their performer.
import type { Tx } from '../../../db/client';
import type { Mailer } from '../../../mail';
import type { WebhookRequestInput } from '../../webhooks/requests';
import type { RecordAttribute } from '../records';
import type { AdaptorCode } from './adaptors';
import type { ActionOutcome, RunContext } from './run-context';

/**
 * INTEGER (min..max), UUID (naming a record of `ref` in the organisation: 400 otherwise), ENUM
 * (one of `values`), STRING (up to `max` characters).
 */
export type ParameterValueType = 'STRING' | 'INTEGER' | 'UUID' | 'ENUM';
export type ParameterRef = 'webhook' | 'template' | 'integration' | 'user' | 'department' | 'user_role' | 'organisation' | 'segment';

export interface ParameterDef {
  key: string;
  /** The spec's parameter_type: what the value means (APPROVAL_ENTITY_TYPE, SUPPLY_METHOD, ...). */
  parameterType: string;
  valueType: ParameterValueType;
  required: boolean;
  description: string;
  defaultValue?: string;
  min?: number;
  max?: number;
  values?: readonly string[];
  ref?: ParameterRef;
  /** A STRING rendered with `{{contact.<field>}}` placeholders: an unknown one is refused when stored. */
  placeholders?: boolean;
}

/** At least one of the groups must be complete: template_id, or subject with content. */
export interface ParameterRule {
  oneOf: string[][];
  message: string;
}

/** The webhook request a webhook action's step writes, before the run names its automation and entity. */
export type StepWebhookRequest = Omit<WebhookRequestInput, 'automation' | 'entity'>;

/**
 * What an action would do for an event, rendered and not performed (an automation's simulation,
 * docs/automations.md "Simulations"): `kind` says what it is (WEBHOOK, COMMUNICATION, EMAIL,
 * APPROVAL, CONTENT_UPDATE, SEGMENT_MEMBERSHIP, ASSIGNMENT), the rest is what would be sent or written.
 */
export type Effect = { kind: string } & Record<string, unknown>;

/** How a run performs the action once its filters hold. */
export type Performer =
  /**
   * In the step's transaction, with the record it answers; work after the commit is an intent written there.
   * `preview` reads, never writes: what `perform` would do (the same composition, a business refusal the same AppError).
   */
  | { kind: 'transaction'; perform(tx: Tx, deps: { mail: Mailer }, ctx: RunContext): Promise<ActionOutcome>; preview(tx: Tx, ctx: RunContext): Promise<Effect> }
  /** Posts a webhook: the request, the record and the delivery in one statement (../webhook-step.ts). */
  | { kind: 'webhook'; request(ctx: RunContext): StepWebhookRequest }
  /** Opens a PENDING record with these attributes; the run waits for its decision, at most its timeout_seconds (src/workflows/automations.ts). */
  | { kind: 'approval'; opened(ctx: RunContext): RecordAttribute[] };

export interface ActionDeclaration {
  code: string;
  name: string;
  /** What it does, in a business user's words (GET /adaptors; the console's action picker). */
  description: string;
  /** The adaptors that list it: in each it is an action of its own (own id, own records). */
  adaptors: readonly [AdaptorCode, ...AdaptorCode[]];
  parameters: ParameterDef[];
  rules: ParameterRule[];
  performer: Performer;
}

/** An action's declaration; `rules` may be left out when it has none. */
export function defineAction(action: Omit<ActionDeclaration, 'rules'> & { rules?: ParameterRule[] }): ActionDeclaration {
  return { ...action, rules: action.rules ?? [] };
}

export const parameter = (key: string, parameterType: string, valueType: ParameterValueType, required: boolean, description: string, extra: Partial<ParameterDef> = {}): ParameterDef => ({
  key, parameterType, valueType, required, description, ...extra,
});

/** A GUID parameter naming a record of `ref` in the organisation. */
export const reference = (key: string, parameterType: string, ref: ParameterRef, required: boolean, description: string) =>
  parameter(key, parameterType, 'UUID', required, description, { ref });

/** The user parameter of COMMUNICATE_USER and of the assignment actions. */
export const userId = () => reference('user_id', 'USER', 'user', true, 'A user of the organisation.');
