// Update Content (Automatic Content Updates): sets one custom field of the event's contact, audited.
import type { Tx } from '../../../db/client';
import { audit } from '../../audit';
import { dayEpoch } from '../../custom-fields/dates';
import { newId } from '../../ids';
import { recordAttribute } from '../records';
import { defineAction, parameter } from './define';
import { systemActor, writableContactOf, type RunContext } from './run-context';

export const updateContent = defineAction({
  code: 'UPDATE_CONTENT',
  name: 'Update Content',
  description: "Sets a custom field of the event's contact.",
  adaptors: ['AUTOMATIC_CONTENT_UPDATES'],
  parameters: [
    parameter('custom_field_key', 'CUSTOM_FIELD_KEY', 'STRING', true, "The custom field of the event's record to set.", { max: 100 }),
    parameter('custom_field_value', 'CUSTOM_FIELD_VALUE', 'STRING', true, 'Its new value.', { max: 2000 }),
  ],
  performer: {
    kind: 'transaction',
    async perform(tx, _deps, ctx) {
      const { key, value, contactId, previous } = await change(tx, ctx);
      const stored = await storedForm(tx, ctx.organisationId, key, value);
      await tx.contactCustomField.upsert({
        where: { contactId_key: { contactId, key } },
        create: { id: newId(), organisationId: ctx.organisationId, contactId, key, value: stored },
        update: { value: stored },
      });
      await audit(tx, systemActor(ctx), { action: 'UPDATE', entityType: 'contact', entityId: contactId, changes: { custom_field_keys: [key] } });
      return {
        status: 'COMPLETED',
        attributes: [
          recordAttribute('custom_field_key', 'Custom field', 'STRING', key),
          recordAttribute('custom_field_value', 'New value', 'STRING', value),
          recordAttribute('previous_value', 'Previous value', 'STRING', previous),
        ],
      };
    },
    async preview(tx, ctx) {
      const { key, value, contactId, previous } = await change(tx, ctx);
      return { kind: 'CONTENT_UPDATE', contact_id: contactId, custom_field_key: key, custom_field_value: value, previous_value: previous };
    },
  },
});

/** The change the action makes (read-only): the contact's field, its new and its current value; refused for an anonymized contact. */
async function change(tx: Tx, ctx: RunContext) {
  const { custom_field_key: key, custom_field_value: value } = ctx.step.parameters;
  const contactId = await writableContactOf(tx, ctx);
  const before = await tx.contactCustomField.findFirst({ where: { organisationId: ctx.organisationId, contactId, key } });
  return { key, value, contactId, previous: before?.value == null ? '' : String(before.value) };
}

/**
 * The value as a contact keeps it: a key defined as DATE keeps a day as its epoch seconds, like
 * every other write (docs/custom-fields.md); anything else, text as given (this action has never
 * checked values against their definitions).
 */
async function storedForm(tx: Tx, organisationId: string, key: string, value: string): Promise<string | number> {
  const definition = await tx.customFieldDefinition.findFirst({ where: { organisationId, entity: 'CONTACTS', key }, select: { type: true } });
  return (definition?.type === 'DATE' ? dayEpoch(value) : undefined) ?? value;
}
