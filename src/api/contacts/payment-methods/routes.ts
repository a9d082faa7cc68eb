import { actorOf } from '../../../domain/audit';
import { prepareCredentials, setContactCredentials } from '../../../domain/contacts/credentials';
import { addPaymentMethod, deletePaymentMethod, listPaymentMethods } from '../../../domain/contacts/payment-methods';
import { route } from '../../route';
import { contentPage, listArgs } from '../../lists';
import { idResponse, pagingQuery } from '../../validation';
import { presentPaymentMethod } from './present';
import { contactRefParams, credentialsBody, paymentMethodBody, paymentMethodList, paymentMethodParams } from './schemas';

const TAG = 'Contacts';

/** Credentials and payment methods of a contact (spec 4.1); see docs/payment-methods.md. */
export function contactPaymentRoutes() {
  return [
    route({
      method: 'post', path: '/contacts/{id}/credentials', operationId: 'setContactCredentials', tag: TAG,
      auth: { scope: 'contacts:write' }, summary: "Set the contact's self-service username and password",
      description: 'A contact has one set of credentials: posting again replaces the username and password and returns the same id. Only an argon2id hash of the password is stored.',
      params: contactRefParams, body: credentialsBody, response: idResponse, errors: [404, 409],
      example: { username: 'ada.lovelace', password: 'correct horse battery' },
      prepare: ({ body }) => prepareCredentials(body),
      handler: ({ ctx, params, prepared }) => setContactCredentials(ctx.db, actorOf(ctx), params.id, prepared),
    }),
    route({
      method: 'post', path: '/contacts/{id}/payment_methods', operationId: 'addContactPaymentMethod', tag: TAG,
      auth: { scope: 'contacts:write' }, summary: 'Add a payment method to a contact',
      description: 'Cards are stored masked only; a full card number is refused. IBANs are checked (mod-97).',
      params: contactRefParams, body: paymentMethodBody, response: idResponse, errors: [404, 409],
      example: { payment_method_type: 'CARD', notes: 'Main card', card: { name: 'Ada Lovelace', brand: 'VISA', card_number: '411111******1111', first6: '411111', last4: '1111', expiration_month: 12, expiration_year: 2040 }, card_holder_details: { card_holder_name: 'Ada Lovelace', address_country: 'CYP' }, card_gateway_token: [{ gateway: 'STRIPE', token: 'tok_123' }] },
      handler: ({ ctx, params, body }) => addPaymentMethod(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'get', path: '/contacts/{id}/payment_methods', operationId: 'listContactPaymentMethods', tag: TAG,
      auth: { scope: 'contacts:read' }, summary: "List a contact's payment methods",
      params: contactRefParams, query: pagingQuery(['created_on']), response: paymentMethodList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        const { rows, total, accounts } = await listPaymentMethods(ctx.db, ctx.organisationId, params.id, listArgs(query, { created_on: 'createdAt' }));
        return contentPage(query, rows.map((row) => presentPaymentMethod(row, accounts)), total);
      },
    }),
    route({
      method: 'delete', path: '/contacts/{id}/payment_methods/{payment_method_id}', operationId: 'deleteContactPaymentMethod', tag: TAG,
      auth: { scope: 'contacts:write' }, summary: "Delete one of a contact's payment methods",
      params: paymentMethodParams, response: idResponse, errors: [404],
      handler: async ({ ctx, params }) => {
        await deletePaymentMethod(ctx.db, actorOf(ctx), params.id, params.payment_method_id);
        return { id: params.payment_method_id };
      },
    }),
  ];
}
