// The input types of automations: the request schemas' outputs.
import type { z } from 'zod';
import type { actionsBody, automationCreateBody, automationUpdateBody } from '../../api/automations/schemas';

export type AutomationInput = z.output<typeof automationCreateBody>;
export type AutomationPatch = z.output<typeof automationUpdateBody>;
export type ActionItemInput = z.output<typeof actionsBody>['content'][number];
