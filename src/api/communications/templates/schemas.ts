// Communication templates (spec 2.10, 4.7; docs/communications.md "Templates"): a name and one
// content per 3-letter language, with `{{contact.<field>}}` placeholders checked when written.
import { z } from 'zod';
import { CHANNELS } from '../../../domain/communications/integration-settings';
import { PLACEHOLDER_FIELDS, unknownPlaceholders } from '../../../domain/communications/render';
import { contentList, nameCodeQuery } from '../../lists';
import { distinct, pagingQuery, whenParsed, zLanguage, zRefCode, zRefName } from '../../validation';

const PLACEHOLDERS = `Placeholders: ${PLACEHOLDER_FIELDS.map((f) => `{{contact.${f}}}`).join(', ')}; any other {{...}} is 400 naming the field.`;

const withPlaceholders = (max: number, description: string) =>
  z
    .string()
    .max(max)
    .superRefine((text, ctx) => {
      const [unknown] = unknownPlaceholders(text);
      if (unknown !== undefined) ctx.addIssue({ code: 'custom', message: `unknown placeholder {{${unknown}}}; ${PLACEHOLDERS}` });
    }, whenParsed)
    .meta({ description: `${description} ${PLACEHOLDERS}` });

const content = z.strictObject({
  language: zLanguage.meta({ description: 'ISO 639 3-letter code (stored lower-case); one content per language.' }),
  subject: withPlaceholders(500, 'EMAIL and INAPP subject; values inserted as they are.').nullish(),
  rich_content: withPlaceholders(200_000, 'HTML; values are HTML-escaped.').nullish(),
  plain_content: withPlaceholders(100_000, 'Plain text (SMS, and the text part of e-mail); values inserted as they are.').nullish(),
});

export const templateContents = z
  .array(content)
  .min(1)
  .max(50)
  .superRefine(distinct((c: { language: string }) => c.language, 'language', 'one content per language: listed twice'), whenParsed);

export const templateCreateBody = z.strictObject({
  name: zRefName,
  code: zRefCode.nullish(),
  contents: templateContents,
});

/** Partial; contents given replace the contents. */
export const templateUpdateBody = z.strictObject({
  name: zRefName.optional(),
  code: zRefCode.nullish(),
  contents: templateContents.optional(),
});

export const templateListQuery = pagingQuery(['name', 'code', 'created_on']).extend({ name: nameCodeQuery.name, code: nameCodeQuery.code });

export const templateItem = z.object({
  id: z.string().meta({ description: 'Shown in reads and lists too (docs/communications.md).' }),
  code: z.string().nullable(),
  name: z.string(),
  contents: z.array(
    z.object({ language: z.string(), subject: z.string().nullable(), rich_content: z.string().nullable(), plain_content: z.string().nullable() }),
  ),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const templateList = contentList(templateItem);

export const templateRenderBody = z.strictObject({
  contact_id: z.string().trim().min(1).max(100).meta({ description: 'The contact whose values fill the placeholders, by id or code.' }),
  language: zLanguage.nullish().meta({ description: "3-letter code; absent or not in the template: the contact's preferred language, else the first content." }),
  channel: z.enum(CHANNELS).default('EMAIL').meta({ description: 'As a communication of this channel would carry it: rich_content for EMAIL only.' }),
});

export const templateRendered = z.object({
  template_id: z.string(),
  contact: z.object({ id: z.string(), name: z.string().nullable(), code: z.string().nullable() }),
  channel: z.enum(CHANNELS),
  language: z.string().meta({ description: 'The content chosen.' }),
  subject: z.string().nullable(),
  content: z.string().nullable().meta({ description: "The plain text a communication would carry: plain_content, else rich_content as text." }),
  rich_content: z.string().nullable().meta({ description: 'EMAIL: the HTML, values HTML-escaped (before the tracking pixel and links are added at sending).' }),
});
