import { actorOf } from '../../domain/audit';
import { anonymiseContact } from '../../domain/contacts/anonymise';
import { bulkUpdateContacts } from '../../domain/contacts/bulk-update';
import { createContact } from '../../domain/contacts/create';
import { getContact } from '../../domain/contacts/read';
import { searchContacts } from '../../domain/contacts/search';
import { getSettings } from '../../domain/money/settings';
import { setConsent, updateContact } from '../../domain/contacts/update';
import type { AppDeps } from '../deps';
import { namedPage } from '../lists';
import { groupAuth, route } from '../route';
import { idResponse, SOME_ID } from '../validation';
import { presentContact, presentSearchItem } from './present';
import { contactDetail, contactSearchQuery, contactSearchResponse } from './responses';
import { consentBody, contactBulkUpdateBody, contactCreateBody, contactParams, contactUpdateBody } from './schemas';

const TAG = 'Contacts';

const CONTACT_EXAMPLE = {
  contact_type: 'PERSON' as const,
  code: 'C-1001',
  first_name: 'Ada',
  last_name: 'Lovelace',
  preferred_language_code: 'eng',
  demographics: { gender: 'FEMALE' as const, date_of_birth: { year: 1990, month: 12, day: 10 } },
  addresses: [{ address_type: 'HOME', is_primary: true, address_line_1: '1 Main St', town_city: 'Nicosia', postal_code: '1000', country_code: 'CYP' }],
  phones: [{ phone_type: 'MOBILE', is_primary: true, country_code: 'CYP', number: '+357 99 000000' }],
  email_address: 'ada@example.com',
  custom_fields: [{ key: 'tier', value: 'gold' }],
  accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR', credit_limit: 500 }],
};
const { read, write } = groupAuth('contacts');

export function contactRoutes(_deps: AppDeps) {
  return [
    route({
      method: 'post', path: '/contacts', operationId: 'createContact', tag: TAG, auth: write,
      summary: 'Create a contact',
      description: 'A PERSON or COMPANY with addresses, phones, e-mails, custom fields and accounts. Writes a REGISTER_CONTACT event.',
      body: contactCreateBody, response: idResponse, errors: [409],
      example: CONTACT_EXAMPLE,
      // Checks and look-ups, then one statement that writes it all (src/domain/contacts/create.ts).
      transaction: 'statement',
      handler: ({ ctx, body }) => createContact(ctx.sql, actorOf(ctx), body),
    }),
    route({
      method: 'put', path: '/contacts', operationId: 'bulkUpdateContacts', tag: TAG, auth: write,
      summary: 'Update the category and custom fields of many contacts',
      description: 'All or nothing. The answer `id` is the call id, stored with every change and carried by each changed contact\'s UPDATE_CONTACT event and by the webhook requests they cause (`call_id`).',
      body: contactBulkUpdateBody, response: idResponse, errors: [409],
      example: { contacts: [{ contact: { code: 'C-1001' }, custom_fields: [{ key: 'tier', value: 'gold' }] }] },
      handler: ({ ctx, body }) => bulkUpdateContacts(ctx.db, actorOf(ctx), body.contacts),
    }),
    route({
      method: 'get', path: '/contacts', operationId: 'searchContacts', tag: TAG, auth: read,
      summary: 'Search contacts',
      query: contactSearchQuery, response: contactSearchResponse,
      handler: async ({ ctx, query }) => {
        const { rows, total } = await searchContacts(ctx.sql, ctx.organisationId, query);
        // The alternative currency's rate, only when financials are asked for.
        const settings = query.financials ? await getSettings(ctx.db, ctx.organisationId) : null;
        const money = settings ? { rate: settings.alternativeCurrencyRate, alternativeCurrencyCode: settings.alternativeCurrencyCode } : undefined;
        return namedPage('contacts', query, rows.map((r) => presentSearchItem(r, money)), total);
      },
    }),
    route({
      method: 'get', path: '/contacts/{id}', operationId: 'getContact', tag: TAG, auth: read,
      summary: 'Get a contact by GUID or code',
      params: contactParams, response: contactDetail, errors: [404],
      handler: async ({ ctx, params }) => presentContact(await getContact(ctx.sql, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/contacts/{id}', operationId: 'updateContact', tag: TAG, auth: write,
      summary: 'Update a contact (partial)',
      description: 'Only supplied fields change. List items with `id` change that item; items without one are added. Custom fields are upserted by key.',
      params: contactParams, body: contactUpdateBody, response: idResponse, errors: [404, 409],
      example: { notes: 'Prefers e-mail', phones: [{ id: SOME_ID, number: '+357 22 000000' }], custom_fields: [{ key: 'tier', value: 'gold' }] },
      handler: ({ ctx, params, body }) => updateContact(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'put', path: '/contacts/{id}/consents', operationId: 'setContactConsent', tag: TAG, auth: write,
      summary: "Record the contact's consent state",
      params: contactParams, body: consentBody, response: idResponse, errors: [404, 409],
      example: { consent_state: 'ACCEPTED' },
      handler: ({ ctx, params, body }) => setConsent(ctx.db, actorOf(ctx), params.id, body.consent_state),
    }),
    route({
      method: 'post', path: '/contacts/{id}/anonymize', operationId: 'anonymizeContact', tag: TAG, auth: write,
      summary: 'Anonymise a contact (irreversible)',
      description: 'Removes names, e-mails, phones, addresses, demographics, custom fields, notes and identifiers; ids and accounts stay.',
      params: contactParams, response: idResponse, errors: [404],
      handler: ({ ctx, params }) => anonymiseContact(ctx.db, actorOf(ctx), params.id),
    }),
  ];
}
