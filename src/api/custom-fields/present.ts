import type { z } from 'zod';
import type { CustomFieldDefinition } from '../../db/client';
import { epoch } from '../present';
import type { definitionItem } from './schemas';

type Item = z.input<typeof definitionItem>;

export function presentDefinition(d: CustomFieldDefinition): Item {
  return {
    id: d.id,
    key: d.key,
    name: d.name,
    description: d.description,
    type: d.type as Item['type'],
    entity: d.entity as Item['entity'],
    ...(d.type === 'LIST' ? { allowed_values: d.allowedValues } : {}),
    created_on: epoch(d.createdAt),
    updated_on: epoch(d.updatedAt),
  };
}
