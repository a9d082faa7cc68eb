import type { z } from 'zod';
import type { SpendConditionView } from '../../domain/spend-conditions/read';
import { presentLocation } from '../network/present';
import { epoch } from '../present';
import type { spendConditionItem } from './schemas';

/** spec 2.4's spend condition; the wallet balances show the same fields. */
export function presentSpendCondition(s: SpendConditionView): z.input<typeof spendConditionItem> {
  return {
    id: s.id,
    code: s.code,
    name: s.name,
    organisations: s.organisations.map((o) => ({ id: o.id, name: o.name, locations: o.locations.map(presentLocation) })),
    products: s.products.map((p) => ({ id_type: p.idType, id: p.id, name: p.name, description: p.description })),
    timings: s.timings.map((t) => ({ month: t.month, day: t.day, start_time: t.start_time, end_time: t.end_time })),
    created_on: epoch(s.createdAt),
    updated_on: epoch(s.updatedAt),
  };
}
