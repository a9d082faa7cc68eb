// The organisation's sending limits (issue 31; docs/communications.md "Quotas"). Read by whoever
// reads communications with a secret credential; changed only by an admin (an admin user, or a key
// holding `*`): they bound what a leaked public key, a plan or an automation can send.
import { actorOf } from '../../../domain/audit';
import { getLimits, updateLimits } from '../../../domain/communications/quotas';
import { forbidden } from '../../../domain/errors';
import { COMMUNICATIONS_TAG as TAG, communicationsRead, communicationsWrite } from '../integrations/routes';
import { route, type RequestContext, type RouteDef } from '../../route';
import { limitsBody, limitsResponse } from './schemas';

const DEFAULTS =
  'Defaults until set: EMAIL 5000 per hour (100 of them with public keys), SMS 500 (20), INAPP 20000 (1000); public_plan_min_interval_minutes 1440.';

function requireAdmin(ctx: RequestContext): void {
  const admin = ctx.actor.type === 'user' ? ctx.actor.isAdmin : ctx.actor.scopes.includes('*');
  if (!admin) throw forbidden('Sending limits are set by an admin user or a key holding *');
}

export function limitRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/communication_limits', operationId: 'getCommunicationLimits', tag: TAG, auth: communicationsRead,
      summary: "Get the organisation's sending quotas",
      description: `Every communication counts against its channel's quota per rolling hour; past it a send answers 429 QUOTA_EXCEEDED with Retry-After, a plan's tick writes the rest FAILED (failure_reason quota: ...) and an automation's action is SKIPPED. ${DEFAULTS}`,
      response: limitsResponse,
      handler: async ({ ctx }) => getLimits(ctx.db, ctx.organisationId),
    }),
    route({
      method: 'put', path: '/communication_limits', operationId: 'updateCommunicationLimits', tag: TAG, auth: communicationsWrite,
      summary: "Change the organisation's sending quotas",
      description: `Admins only (an admin user, or a key holding *; else 403). Partial: the channels given replace theirs. Answers the limits. ${DEFAULTS}`,
      body: limitsBody, response: limitsResponse, errors: [403],
      example: { quotas: [{ channel: 'SMS', per_hour: 1000, public_key_per_hour: 0 }], public_plan_min_interval_minutes: 10080 },
      handler: async ({ ctx, body }) => {
        requireAdmin(ctx);
        return updateLimits(ctx.db, actorOf(ctx), body);
      },
    }),
  ];
}
