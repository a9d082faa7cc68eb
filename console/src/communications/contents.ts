// The per-language contents of a template or a plan (the same shape in the API: one content per
// 3-letter language, each with a subject, plain text and HTML), as the editor holds them.
import type { Content } from './types';

export interface ContentDraft {
  /** The editor's own key for the tab (a language may be changed while typing). */
  key: string;
  language: string;
  subject: string;
  plain_content: string;
  rich_content: string;
}

export type ContentField = 'language' | 'subject' | 'plain_content' | 'rich_content';

let keys = 0;
const nextKey = () => `content-${++keys}`;

export const emptyContent = (language: string): ContentDraft => ({ key: nextKey(), language, subject: '', plain_content: '', rich_content: '' });

export function contentDrafts(contents: Array<{ language: string; subject: string | null; plain_content: string | null; rich_content: string | null }>): ContentDraft[] {
  return contents.map((c) => ({ key: nextKey(), language: c.language, subject: c.subject ?? '', plain_content: c.plain_content ?? '', rich_content: c.rich_content ?? '' }));
}

/** Empty texts are sent as null (the API's "none"); the texts themselves as typed. */
export function contentsBody(drafts: ContentDraft[]): Content[] {
  return drafts.map((d) => ({ language: d.language, subject: d.subject || null, plain_content: d.plain_content || null, rich_content: d.rich_content || null }));
}

/** `contents.1.plain_content` → content 1, field plain_content (`contents.1` → the content itself). */
export function contentAttribute(attribute: string): { index: number; field?: string } | undefined {
  const m = /^contents\.(\d+)(?:\.(\w+))?/.exec(attribute);
  return m ? { index: Number(m[1]), field: m[2] } : undefined;
}
