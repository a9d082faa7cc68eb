// Custom field definitions (spec 2.13, 4.9; docs/custom-fields.md), managed like reference data.
// GET /custom_fields answers a bare array, as spec 4.9 says.
import { actorOf } from '../../domain/audit';
import { createDefinition, deleteDefinition, getDefinition, listDefinitions, updateDefinition } from '../../domain/custom-fields/definitions';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { presentDefinition } from './present';
import { definitionCreateBody, definitionItem, definitionList, definitionListQuery, definitionUpdateBody } from './schemas';

const TAG = 'Custom fields';
const read = { scope: 'reference_data:read' } as const;
const write = { scope: 'reference_data:write' } as const;

export function customFieldRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/custom_fields', operationId: 'createCustomField', tag: TAG, auth: write,
      summary: 'Define a custom field',
      description:
        'Once an entity has a definition, every custom_fields[] written for it must use a defined key (400 naming custom_fields.N.key) '
        + 'with a value of its type (400 naming custom_fields.N.value). The same key again for the entity: 409 ALREADY_EXISTS.',
      body: definitionCreateBody, response: idResponse, errors: [409],
      // The account operations' examples write this key: every example must stay valid together.
      example: { entity: 'ACCOUNTS', key: 'renewal_date', name: 'Renewal date', description: 'When the contract renews', type: 'DATE' },
      handler: ({ ctx, body }) => createDefinition(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/custom_fields', operationId: 'listCustomFields', tag: TAG, auth: read,
      summary: 'List custom field definitions', description: 'All entities unless entity_name names one; by entity, then key.',
      query: definitionListQuery, response: definitionList,
      handler: async ({ ctx, query }) => (await listDefinitions(ctx.db, ctx.organisationId, query.entity_name)).map(presentDefinition),
    }),
    route({
      method: 'get', path: '/custom_fields/{id}', operationId: 'getCustomField', tag: TAG, auth: read,
      summary: 'Get a custom field definition', params: idParams, response: definitionItem, errors: [404],
      handler: async ({ ctx, params }) => presentDefinition(await getDefinition(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/custom_fields/{id}', operationId: 'updateCustomField', tag: TAG, auth: write,
      summary: 'Update a custom field definition',
      description:
        'Partial: name, description, type, allowed_values; key and entity never change. A LIST keeps its allowed_values unless given; '
        + 'another type has none. Stored values are not checked again: the definition applies to values written from now on.',
      params: idParams, body: definitionUpdateBody, response: idResponse, errors: [404],
      example: { name: 'Contract renewal', type: 'LIST', allowed_values: ['MONTHLY', 'YEARLY'] },
      handler: async ({ ctx, params, body }) => {
        await updateDefinition(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/custom_fields/{id}', operationId: 'deleteCustomField', tag: TAG, auth: write,
      summary: 'Delete a custom field definition', description: 'Values stored under the key stay; when it was the entity\'s last definition, its keys are free again.',
      params: idParams, response: idResponse, errors: [404],
      handler: async ({ ctx, params }) => {
        await deleteDefinition(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
