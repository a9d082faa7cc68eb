// Custom field definitions (spec 2.13, 4.9; docs/custom-fields.md), managed like reference data.
// GET /custom_fields answers a bare array, as spec 4.9 says.
import { createDefinition, deleteDefinition, getDefinition, listDefinitions, updateDefinition } from '../../domain/custom-fields/definitions';
import { REFERENCE_AUTH } from '../reference/catalogue-routes';
import { resourceRoutes } from '../resource';
import { route, type RouteDef } from '../route';
import { presentDefinition } from './present';
import * as s from './schemas';

const TAG = 'Custom fields';

export function customFieldRoutes(): RouteDef[] {
  return resourceRoutes({
    path: '/custom_fields', one: 'CustomField', many: 'CustomFields', label: 'custom field definition', tag: TAG, auth: REFERENCE_AUTH,
    item: s.definitionItem, present: presentDefinition,
    create: {
      summary: 'Define a custom field',
      description:
        'Once an entity has a definition, every custom_fields[] written for it must use a defined key (400 naming custom_fields.N.key) '
        + 'with a value of its type (400 naming custom_fields.N.value). The same key again for the entity: 409 ALREADY_EXISTS.',
      body: s.definitionCreateBody, run: createDefinition,
      // The account operations' examples write this key: every example must stay valid together.
      example: { entity: 'ACCOUNTS', key: 'renewal_date', name: 'Renewal date', description: 'When the contract renews', type: 'DATE' },
    },
    list: route({
      method: 'get', path: '/custom_fields', operationId: 'listCustomFields', tag: TAG, auth: REFERENCE_AUTH.read,
      summary: 'List custom field definitions', description: 'All entities unless entity_name names one; by entity, then key.',
      query: s.definitionListQuery, response: s.definitionList,
      handler: async ({ ctx, query }) => (await listDefinitions(ctx.db, ctx.organisationId, query.entity_name)).map(presentDefinition),
    }),
    get: { run: getDefinition },
    update: {
      description:
        'Partial: name, description, type, allowed_values; key and entity never change. A LIST keeps its allowed_values unless given; '
        + 'another type has none. Stored values are not checked again: the definition applies to values written from now on.',
      body: s.definitionUpdateBody, errors: [404], run: updateDefinition,
      example: { name: 'Contract renewal', type: 'LIST', allowed_values: ['MONTHLY', 'YEARLY'] },
    },
    delete: {
      description: 'Values stored under the key stay; when it was the entity\'s last definition, its keys are free again.',
      errors: [404], run: deleteDefinition,
    },
  });
}
