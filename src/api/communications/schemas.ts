// Communications (spec 2.10, 4.7; docs/communications.md "Communications"): one message to one
// contact on one channel, sent by the communication-send workflow.
import { z } from 'zod';
import { CHANNELS } from '../../domain/communications/integration-settings';
import { contentList } from '../lists';
import { pagingQuery, zBool, zId, zLanguage, zRefName } from '../validation';

export const LIFE_CYCLE_STATES = ['PENDING', 'SENT', 'FAILED'] as const;

export const communicationCreateBody = z.strictObject({
  name: zRefName,
  contact_id: z.string().trim().min(1).max(100).meta({ description: 'The contact, by id or code.' }),
  channel: z.enum(CHANNELS),
  integration_id: zId.nullish().meta({
    description: "An integration of the channel; absent: the organisation's first of the channel (oldest), else for EMAIL the SYSTEM mailer.",
  }),
  language: zLanguage.nullish().meta({ description: '3-letter code; picks the template content (else the contact\'s preferred language, else the first content).' }),
  recipient: z.string().trim().min(1).max(254).nullish().meta({ description: "Address (EMAIL) or phone number (SMS); absent: the contact's primary e-mail or phone." }),
  subject: z.string().max(500).nullish().meta({ description: 'EMAIL and INAPP; required for EMAIL without a template. {{contact.<field>}} placeholders render as in templates (an unknown one: 400).' }),
  content: z.string().min(1).max(100_000).nullish().meta({ description: 'Plain text; required without template_id. {{contact.<field>}} placeholders render as in templates (an unknown one: 400).' }),
  ignore_preferences: zBool.optional().meta({ description: "true: send although the contact opted out of the channel (email_opt_out, sms_opt_out)." }),
  template_id: zId.nullish().meta({ description: "A template rendered for the contact; its subject and contents replace subject and content." }),
});

export const communicationUpdateBody = z.strictObject({
  is_archived: zBool,
});

export const communicationListQuery = pagingQuery(['created_on', 'name', 'life_cycle_state', 'channel']).extend({
  contact_id: zId.optional(),
  life_cycle_state: z.enum(LIFE_CYCLE_STATES).optional(),
  channel: z.enum(CHANNELS).optional(),
  is_archived: zBool.optional().meta({ description: 'Absent: both.' }),
});

const common = {
  id: z.string(),
  name: z.string(),
  life_cycle_state: z.enum(LIFE_CYCLE_STATES),
  channel: z.enum(CHANNELS),
  is_viewed: z.boolean(),
  viewed_on: z.number().int().nullable(),
  is_archived: z.boolean(),
  clicked_on: z.number().int().nullable().meta({ description: 'First click.' }),
  created_on: z.number().int(),
  sent_on: z.number().int().nullable(),
  language: z.string().nullable(),
  sender: z.string().nullable(),
  recipient: z.string().nullable(),
  subject: z.string().nullable(),
  content: z.string().nullable().meta({ description: 'Null only to a public key (see the operation).' }),
  failure_reason: z.string().nullable(),
  integration_id: z.string().nullable(),
  template_id: z.string().nullable(),
};

export const communicationItem = z.object({
  ...common,
  contact: z.object({ id: z.string(), name: z.string().nullable(), code: z.string().nullable() }),
  rich_content: z.string().nullable().meta({
    description: "EMAIL from a template: the HTML part as rendered for the contact, before the tracking pixel and links were added at sending (single read only). Null otherwise: the e-mail's HTML was the plain content.",
  }),
});

export const communicationListItem = z.object({ ...common, contact_id: z.string() });

export const communicationList = contentList(communicationListItem);
