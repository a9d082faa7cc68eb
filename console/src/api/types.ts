// Shapes of the API's answers and bodies, named from the generated paths (never written by hand).
import type { paths } from '@api/schema';

type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;
/** The 200 answer of GET `P`. */
export type Get<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } } ? Json<R> : never;
/** The JSON body of the `M` operation of `P`. */
export type Body<P extends keyof paths, M extends 'post' | 'put'> = paths[P] extends Record<M, { requestBody?: infer B }> ? Json<NonNullable<B>> : never;
/** The 200 answer of the `M` operation of `P`. */
export type Answer<P extends keyof paths, M extends 'post' | 'put'> = paths[P] extends Record<M, { responses: { 200: infer R } }> ? Json<R> : never;

export type EntityDef = Get<'/automation_events'>['content'][number];
export type AttributeDef = EntityDef['attributes'][number];
export type AdaptorDef = Get<'/adaptors'>['content'][number];
export type ActionDef = AdaptorDef['actions'][number];
export type ParameterDef = ActionDef['parameters'][number];
export type Automation = Get<'/automations/{id}'>;
export type StoredAction = Get<'/automations/{id}/actions'>['content'][number];
export type ActionRecord = Get<'/adaptors/{id}/actions/{action_id}/records'>['content'][number];
export type ActionsBody = Body<'/automations/{id}/actions', 'post'>;
export type AutomationCreate = Body<'/automations', 'post'>;
export type AutomationUpdate = Body<'/automations/{id}', 'put'>;
export type AutomationRun = Get<'/automations/{id}/runs'>['content'][number];
export type RunAction = AutomationRun['actions'][number];
export type CurrentUser = Get<'/users/me'>;
