import type { z } from 'zod';
import type { SegmentFilter, SegmentRecord } from '../../../domain/communications/segments';
import { epoch } from '../../present';
import type { segmentItem, segmentListQuery } from './schemas';

type Item = z.input<typeof segmentItem>;

export function presentSegment(s: SegmentRecord): Item {
  const isStatic = s.type === 'STATIC';
  return {
    id: s.id,
    code: s.code,
    name: s.name,
    type: s.type as Item['type'],
    filters: isStatic ? null : ((s.filters ?? {}) as Record<string, unknown>),
    contact_count: isStatic ? s._count.contacts : null,
    created_on: epoch(s.createdAt),
    updated_on: epoch(s.updatedAt),
  };
}

export function segmentFilter(q: z.output<typeof segmentListQuery>): SegmentFilter {
  return { code: q.code, name: q.name, type: q.type };
}
