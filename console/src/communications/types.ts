// Shapes of the communication operations' answers and bodies, named from the generated paths.
import type { paths } from '@api/schema';
import type { Answer, Body, Get } from '../api/types';

export type Template = Get<'/communication_templates/{id}'>;
export type TemplateListItem = Get<'/communication_templates'>['content'][number];
export type TemplateCreate = Body<'/communication_templates', 'post'>;
export type TemplateUpdate = Body<'/communication_templates/{id}', 'put'>;
export type Content = TemplateCreate['contents'][number];
export type RenderedTemplate = Answer<'/communication_templates/{id}/render', 'post'>;

export type Plan = Get<'/communication_plans/{id}'>;
export type PlanListItem = Get<'/communication_plans'>['content'][number];
export type PlanCreate = Body<'/communication_plans', 'post'>;
export type PlanUpdate = Body<'/communication_plans/{id}', 'put'>;
export type PlanState = Plan['life_cycle_state'];
export type Channel = Plan['preferred_channel'];

export type Message = Get<'/communications/{id}'>;
export type MessageListItem = Get<'/communications'>['content'][number];
export type MessageQuery = NonNullable<paths['/communications']['get']['parameters']['query']>;
export type MessageState = Message['life_cycle_state'];

export type Segment = Get<'/segments'>['content'][number];
export type Integration = Get<'/integrations'>['content'][number];

export const CHANNELS: Channel[] = ['EMAIL', 'SMS', 'INAPP'];
export const MESSAGE_STATES: MessageState[] = ['PENDING', 'SENT', 'FAILED'];
export const STATE_COLOURS: Record<MessageState, string> = { PENDING: 'yellow', SENT: 'green', FAILED: 'red' };
export const PLAN_COLOURS: Record<PlanState, string> = { DRAFT: 'gray', POSTED: 'green' };
