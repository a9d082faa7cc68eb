import type { z } from 'zod';
import type { AccountingPeriod } from '../../../db/client';
import type { SortField } from '../../lists';
import { epoch } from '../../present';
import type { periodItem } from './schemas';

export function presentPeriod(p: AccountingPeriod): z.input<typeof periodItem> {
  return {
    id: p.id,
    name: p.name,
    start_date: epoch(p.startDate),
    end_date: epoch(p.endDate),
    state: p.state as z.input<typeof periodItem>['state'],
    closed_on: epoch(p.closedAt),
    created_on: epoch(p.createdAt),
    updated_on: epoch(p.updatedAt),
  };
}

export const PERIOD_SORT: Record<string, SortField> = { start_date: 'startDate', name: 'name', created_on: 'createdAt' };
