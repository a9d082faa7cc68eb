// The input types of the communications reference data: the request schemas' outputs.
import type { z } from 'zod';
import type { integrationCreateBody, integrationUpdateBody } from '../../api/communications/integrations/schemas';
import type { segmentCreateBody, segmentUpdateBody } from '../../api/communications/segments/schemas';
import type { templateCreateBody, templateUpdateBody } from '../../api/communications/templates/schemas';
import type { communicationCreateBody } from '../../api/communications/schemas';
import type { planCreateBody, planUpdateBody } from '../../api/communications/plans/schemas';

export type IntegrationInput = z.output<typeof integrationCreateBody>;
export type IntegrationPatch = z.output<typeof integrationUpdateBody>;
export type SegmentInput = z.output<typeof segmentCreateBody>;
export type SegmentPatch = z.output<typeof segmentUpdateBody>;
export type TemplateInput = z.output<typeof templateCreateBody>;
export type TemplatePatch = z.output<typeof templateUpdateBody>;

export type CommunicationInput = z.output<typeof communicationCreateBody>;

export type PlanInput = z.output<typeof planCreateBody>;
export type PlanPatch = z.output<typeof planUpdateBody>;
