import type { z } from 'zod';
import { nextTick, type PlanRecord } from '../../../domain/communications/plans';
import type { LanguageContent } from '../../../domain/communications/render';
import type { SortField } from '../../lists';
import { epoch } from '../../present';
import type { planItem, planListItem } from './schemas';

export const PLAN_SORT: Record<string, SortField> = { name: 'name', start_date: 'startDate', created_on: 'createdAt' };

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

export function presentPlanListItem(p: PlanRecord): z.input<typeof planListItem> {
  return {
    id: p.id,
    name: p.name,
    start_date: epoch(p.startDate),
    end_date: p.endDate ? epoch(p.endDate) : null,
    life_cycle_state: p.lifeCycleState as 'DRAFT' | 'POSTED',
    integrations: p.integrations.map((i) => ({ id: i.integration.id, name: i.integration.name, channel: i.integration.channel as 'EMAIL' })),
    preferred_channel: p.preferredChannel as 'EMAIL',
    frequency: p.frequency,
    next_tick_on: seconds(nextTick(p)),
  };
}

export function presentPlan(p: PlanRecord): z.input<typeof planItem> {
  return {
    ...presentPlanListItem(p),
    segments: p.segments.map((s) => ({ id: s.segment.id, name: s.segment.name })),
    contents: (p.contents as unknown as LanguageContent[]).map((c) => ({
      language: c.language,
      subject: c.subject ?? null,
      rich_content: c.rich_content ?? null,
      plain_content: c.plain_content ?? null,
    })),
    created_on: epoch(p.createdAt),
    updated_on: epoch(p.updatedAt),
  };
}
