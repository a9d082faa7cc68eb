import type { z } from 'zod';
import type { TemplateRecord } from '../../domain/communications/templates';

import { epoch } from '../present';
import type { templateItem, templateListQuery } from './schemas';
import type { NameCodeFilter } from '../../domain/lists';

/** List and read items have the same shape (spec 2.10), with the id (docs/communications.md). */
export function presentTemplate(t: TemplateRecord): z.input<typeof templateItem> {
  return {
    id: t.id,
    code: t.code,
    name: t.name,
    contents: t.contents.map((c) => ({ language: c.language, subject: c.subject, rich_content: c.richContent, plain_content: c.plainContent })),
    created_on: epoch(t.createdAt),
    updated_on: epoch(t.updatedAt),
  };
}

export function templateFilter(q: z.output<typeof templateListQuery>): NameCodeFilter {
  return { code: q.code, name: q.name };
}
