// Automations (spec 2.8, 4.6): definitions, their action sequences, and the catalogue they are
// built from. Decisions: docs/automations.md.
import { actorOf } from '../../domain/audit';
import {
  createAutomation, deleteAutomation, getAutomation, listActions, listAutomations, setActions, updateAutomation,
} from '../../domain/automations/definitions';
import { resourceRoutes } from '../resource';
import { route, type RouteDef } from '../route';
import { idParams, idResponse, SOME_ID } from '../validation';
import { AUTOMATION_SORT, automationFilter, presentAction, presentAdaptors, presentAutomation, presentAutomationEvents } from './present';
import { runRoutes } from './runs-routes';
import { simulationRoutes } from './simulation-routes';
import {
  actionList, actionsBody, adaptorList, automationCreateBody, automationEventList, automationItem, automationList,
  automationListQuery, automationUpdateBody, MAX_ACTIONS,
} from './schemas';

export const AUTOMATIONS_TAG = 'Automations';
export const automationsRead = { scope: 'automations:read' } as const;
export const automationsWrite = { scope: 'automations:write' } as const;
const TAG = AUTOMATIONS_TAG;

export function automationRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/automation_events', operationId: 'listAutomationEvents', tag: TAG, auth: automationsRead,
      summary: 'List the entities and events automations bind to',
      description:
        'Each entity with its trigger events and the attributes its action filters may name: their type and the operators allowed on it, ' +
        'what a value is (value_type), and for closed lists the allowed values, or where the values are listed (values_from: GET /countries, a reference list).',
      response: automationEventList,
      handler: async () => presentAutomationEvents(),
    }),
    route({
      method: 'get', path: '/adaptors', operationId: 'listAdaptors', tag: TAG, auth: automationsRead,
      summary: 'List adaptors, their actions and parameters',
      description: 'Ids are stable (derived from the codes); paths take an adaptor or action by id or code.',
      response: adaptorList,
      handler: async () => presentAdaptors(),
    }),
    ...resourceRoutes({
      path: '/automations', one: 'Automation', many: 'Automations', label: 'automation', article: 'an', tag: TAG,
      auth: { read: automationsRead, write: automationsWrite }, item: automationItem, present: presentAutomation,
      create: {
        description: 'event must be one of the entity\'s events (GET /automation_events), else 400 naming event. Only ACTIVE automations run.',
        body: automationCreateBody, run: createAutomation,
        example: { name: 'Welcome new contacts', description: 'Greets every new contact', life_cycle_state: 'INACTIVE', entity: 'CONTACTS', event: 'REGISTER_CONTACT' },
      },
      list: {
        description: 'Filters: search_value (text within the name), name (whole name), state (or life_cycle_state), entity, event. Sortable by name, created_on, updated_on (default: newest first).',
        query: automationListQuery, response: automationList, sort: AUTOMATION_SORT, filter: automationFilter, run: listAutomations,
      },
      get: { run: getAutomation },
      update: {
        description: 'Partial. state and life_cycle_state are the same field (both given and different: 400). The event may change within the entity; the entity only while there are no actions (409 AUTOMATION_HAS_ACTIONS).',
        body: automationUpdateBody, run: updateAutomation,
        example: { name: 'Welcome new contacts', description: 'Greets every new contact', state: 'ACTIVE' },
      },
      delete: { description: 'Its actions go with it; its adaptor action records stay (they keep its id and name).', errors: [404], run: deleteAutomation },
    }),
    route({
      method: 'post', path: '/automations/{id}/actions', operationId: 'setAutomationActions', tag: TAG, auth: automationsWrite,
      summary: "Replace an automation's action sequence",
      description:
        `The whole sequence (at most ${MAX_ACTIONS}) replaces the stored one; ids given that are this automation's are kept. ` +
        'Each action must be one of its adaptor\'s (GET /adaptors) with its parameters; a GUID parameter naming no record of the organisation is 400 naming it ' +
        '(content.N.adaptor_action_parameters.M.parameter_from_value). Filters name attributes of the automation\'s entity (GET /automation_events).',
      params: idParams, body: actionsBody, response: idResponse, errors: [404],
      example: {
        content: [{
          order: 1, path: 'main', adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK',
          adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: SOME_ID, parameter_type: 'WEBHOOK' }],
          action_filters: [{ filters: [{ attribute: 'CONTACT_TYPE', type: 'STRING', operator: 'EQUAL', value: 'PERSON' }] }],
        }],
      },
      handler: async ({ ctx, params, body }) => {
        await setActions(ctx.db, actorOf(ctx), params.id, body.content);
        return { id: params.id };
      },
    }),
    route({
      method: 'get', path: '/automations/{id}/actions', operationId: 'listAutomationActions', tag: TAG, auth: automationsRead,
      summary: "Get an automation's action sequence", description: 'In order.',
      params: idParams, response: actionList, errors: [404],
      handler: async ({ ctx, params }) => ({ content: (await listActions(ctx.db, ctx.organisationId, params.id)).map(presentAction) }),
    }),
    ...runRoutes(TAG, automationsRead),
    ...simulationRoutes(TAG, { read: automationsRead, write: automationsWrite }),
  ];
}
