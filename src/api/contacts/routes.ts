import { actorOf } from '../../domain/audit';
import { anonymiseContact } from '../../domain/contacts/anonymise';
import { bulkUpdateContacts } from '../../domain/contacts/bulk-update';
import { createContact } from '../../domain/contacts/create';
import { getContact } from '../../domain/contacts/read';
import { searchContacts } from '../../domain/contacts/search';
import { setConsent, updateContact } from '../../domain/contacts/update';
import type { Tx } from '../../db/client';
import type { AppDeps } from '../app';
import { route, type RequestContext } from '../route';
import { idResponse } from '../validation';
import { contactDetail, contactSearchQuery, contactSearchResponse } from './responses';
import { consentBody, contactBulkUpdateBody, contactCreateBody, contactParams, contactUpdateBody } from './schemas';

const TAG = 'Contacts';
const read = { scope: 'contacts:read' } as const;
const write = { scope: 'contacts:write' } as const;

/** A contact write is several statements; give it room when the embedded database is busy. */
function inTransaction<T>(ctx: RequestContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.db.$transaction(fn, { maxWait: 10_000, timeout: 30_000 });
}

export function contactRoutes(_deps: AppDeps) {
  return [
    route({
      method: 'post', path: '/contacts', operationId: 'createContact', tag: TAG, auth: write,
      summary: 'Create a contact',
      description: 'A PERSON or COMPANY with addresses, phones, e-mails, custom fields and accounts. Writes a REGISTER_CONTACT event.',
      body: contactCreateBody, response: idResponse, errors: [409],
      handler: ({ ctx, body }) => inTransaction(ctx, (tx) => createContact(tx, actorOf(ctx), body)),
    }),
    route({
      method: 'put', path: '/contacts', operationId: 'bulkUpdateContacts', tag: TAG, auth: write,
      summary: 'Update the category and custom fields of many contacts',
      description: 'All or nothing. The answer `id` is the call id, stored with every change and carried by the CONTACT_BULK_UPDATED event.',
      body: contactBulkUpdateBody, response: idResponse, errors: [409],
      handler: ({ ctx, body }) => inTransaction(ctx, (tx) => bulkUpdateContacts(tx, actorOf(ctx), body.contacts)),
    }),
    route({
      method: 'get', path: '/contacts', operationId: 'searchContacts', tag: TAG, auth: read,
      summary: 'Search contacts',
      query: contactSearchQuery, response: contactSearchResponse,
      handler: async ({ ctx, query }) => {
        const { contacts, total } = await searchContacts(ctx.db, ctx.organisationId, query);
        return { contacts, paging: { page: query.page, size: query.size, total } };
      },
    }),
    route({
      method: 'get', path: '/contacts/{id}', operationId: 'getContact', tag: TAG, auth: read,
      summary: 'Get a contact by GUID or code',
      params: contactParams, response: contactDetail, errors: [404],
      handler: ({ ctx, params }) => getContact(ctx.db, ctx.organisationId, params.id),
    }),
    route({
      method: 'put', path: '/contacts/{id}', operationId: 'updateContact', tag: TAG, auth: write,
      summary: 'Update a contact (partial)',
      description: 'Only supplied fields change. List items with `id` change that item; items without one are added. Custom fields are upserted by key.',
      params: contactParams, body: contactUpdateBody, response: idResponse, errors: [404, 409],
      handler: ({ ctx, params, body }) => inTransaction(ctx, (tx) => updateContact(tx, actorOf(ctx), params.id, body)),
    }),
    route({
      method: 'put', path: '/contacts/{id}/consents', operationId: 'setContactConsent', tag: TAG, auth: write,
      summary: "Record the contact's consent state",
      params: contactParams, body: consentBody, response: idResponse, errors: [404, 409],
      handler: ({ ctx, params, body }) => inTransaction(ctx, (tx) => setConsent(tx, actorOf(ctx), params.id, body.consent_state)),
    }),
    route({
      method: 'post', path: '/contacts/{id}/anonymize', operationId: 'anonymizeContact', tag: TAG, auth: write,
      summary: 'Anonymise a contact (irreversible)',
      description: 'Removes names, e-mails, phones, addresses, demographics, custom fields, notes and identifiers; ids and accounts stay.',
      params: contactParams, response: idResponse, errors: [404],
      handler: ({ ctx, params }) => inTransaction(ctx, (tx) => anonymiseContact(tx, actorOf(ctx), params.id)),
    }),
  ];
}
