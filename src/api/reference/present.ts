import type { z } from 'zod';
import type { CatalogueRow } from '../../domain/reference/catalogue';
import { epoch } from '../present';
import type { entryItem } from './schemas';

export function presentEntry(row: CatalogueRow): z.input<typeof entryItem> {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    created_on: epoch(row.createdAt),
    updated_on: epoch(row.updatedAt),
  };
}
