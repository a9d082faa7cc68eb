// Template placeholders (docs/communications.md "Placeholders").
//
// Syntax: `{{contact.<field>}}`, spaces allowed inside the braces (`{{ contact.code }}`), for
// the fixed, published list of fields in PLACEHOLDER_FIELDS. Anything else between `{{` and `}}`
// is refused when a template is written (400 naming the content field), so a render never meets
// an unknown one. A field the contact has no value for renders as the empty string. Values are
// HTML-escaped in rich_content and inserted as they are in subject and plain_content. Direct
// content (a subject and content given without a template) renders the same way (renderDirect).
import { invalid } from '../errors';

/** The contact fields a template may name, as `{{contact.<field>}}`. */
export const PLACEHOLDER_FIELDS = [
  'id',
  'code',
  'title',
  'first_name',
  'middle_name',
  'last_name',
  'name',
  'company_name',
  'email',
  'phone',
  'loyalty_identifier',
  'referral_code',
] as const;

export type PlaceholderField = (typeof PLACEHOLDER_FIELDS)[number];

/** What a render needs of a contact: each published field, null or absent when it has none. */
export type RenderContact = Partial<Record<PlaceholderField, string | null>>;

export interface TemplateContent {
  subject?: string | null;
  rich_content?: string | null;
  plain_content?: string | null;
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const KNOWN = new Set<string>(PLACEHOLDER_FIELDS.map((f) => `contact.${f}`));

/** The placeholders of a text that are not on the published list, in order of appearance. */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((name) => !KNOWN.has(name));
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function fill(text: string, contact: RenderContact, html: boolean): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (!KNOWN.has(name)) throw new Error(`unknown placeholder {{${name}}}`);
    const value = contact[name.slice('contact.'.length) as PlaceholderField] ?? '';
    return html ? escapeHtml(value) : value;
  });
}

/** The content with every placeholder replaced by the contact's value (rich_content HTML-escaped). */
export function renderTemplate<C extends TemplateContent>(content: C, contact: RenderContact): C {
  const out: C = { ...content };
  if (content.subject != null) out.subject = fill(content.subject, contact, false);
  if (content.plain_content != null) out.plain_content = fill(content.plain_content, contact, false);
  if (content.rich_content != null) out.rich_content = fill(content.rich_content, contact, true);
  return out;
}

/**
 * Direct text rendered like a template's plain text, so no placeholder is ever sent as it is;
 * an unknown one is 400 naming `attribute` (a stored automation may predate that check).
 */
export function renderDirect(text: string | null | undefined, contact: RenderContact, attribute: string): string | null {
  if (text === null || text === undefined) return null;
  const [unknown] = unknownPlaceholders(text);
  if (unknown !== undefined) {
    throw invalid(attribute, `${attribute}: unknown placeholder {{${unknown}}}; known: ${PLACEHOLDER_FIELDS.map((f) => `{{contact.${f}}}`).join(', ')}`);
  }
  return fill(text, contact, false);
}

export interface LanguageContent extends TemplateContent {
  language: string;
}

/** What a communication stores of a rendered content. */
export interface RenderedMessage {
  language: string;
  subject: string | null;
  /** Plain text: plain_content, else rich_content as text; null when the content has neither. */
  content: string | null;
  /** EMAIL only. */
  richContent: string | null;
}

/**
 * The content in `language`, else in the contact's preferred language, else the first one
 * (docs/communications.md), rendered for the contact.
 */
export function renderMessage(
  contents: readonly LanguageContent[],
  want: { language?: string | null; preferred?: string | null; channel: string },
  contact: RenderContact,
): RenderedMessage {
  const preferred = want.preferred?.toLowerCase();
  const pick =
    (want.language && contents.find((c) => c.language === want.language)) ||
    (preferred && contents.find((c) => c.language === preferred)) ||
    contents[0];
  const rendered = renderTemplate(pick, contact);
  return {
    language: pick.language,
    subject: rendered.subject ?? null,
    content: rendered.plain_content ?? (rendered.rich_content != null ? htmlToText(rendered.rich_content) : null),
    richContent: want.channel === 'EMAIL' ? (rendered.rich_content ?? null) : null,
  };
}

export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
    .trim();
}
