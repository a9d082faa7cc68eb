import type { z } from 'zod';
import type { TemplateRecord } from '../../../domain/communications/templates';
import { epoch } from '../../present';
import type { templateItem } from './schemas';

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
