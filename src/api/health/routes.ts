import { z } from 'zod';
import { AppError } from '../../domain/errors';
import type { AppDeps } from '../deps';
import { route } from '../route';

/**
 * Short, fixed reasons: the checks' own error text can name hosts, ports, users or a DSN, and
 * goes to the log instead (docs/security.md "Health").
 */
const REASONS = ['timeout', 'unreachable', 'refused_credentials', 'error'] as const;
type Reason = (typeof REASONS)[number];

const check = z.object({ ok: z.boolean(), reason: z.enum(REASONS).optional() });
const healthResponse = z.object({
  // Down is the 503 error body (UNAVAILABLE), as every error of the API.
  status: z.literal('UP'),
  checks: z.record(z.string(), check).optional().meta({ description: 'Only to a secret API key or a user token.' }),
});

export function healthRoutes(deps: AppDeps) {
  return [
    route({
      method: 'get', path: '/health', operationId: 'health', tag: 'Operations', auth: 'none', optionalCredential: true,
      summary: 'Readiness: database and Temporal reachability',
      description:
        'Answers 200 `{status: "UP"}` when every dependency answers, otherwise 503 `UNAVAILABLE`. Needs no credential. ' +
        'With a secret API key or a user token (any scope) the answer names each check (`database`, `temporal`) and, for a failing one, ' +
        `a reason (${REASONS.map((r) => `\`${r}\``).join(', ')}); the error text itself is only logged. A public key gets the short answer.`,
      response: healthResponse, errors: [401, 429, 503],
      handler: async ({ ctx }) => {
        const raw = await deps.health();
        const failing = Object.entries(raw).filter(([, c]) => !c.ok);
        for (const [name, c] of failing) deps.log.warn({ requestId: ctx.requestId, check: name, detail: c.detail }, 'health check failed');
        // Secret keys and users; anonymous callers (and public keys, made to be handed out) are PUBLIC.
        const detailed = ctx.actor.kind === 'SECRET';
        const checks = Object.fromEntries(Object.entries(raw).map(([name, c]) => [name, c.ok ? { ok: true } : { ok: false, reason: reasonOf(c.detail) }]));
        if (failing.length === 0) return detailed ? { status: 'UP' as const, checks } : { status: 'UP' as const };
        const named = failing.map(([name]) => `${name} (${checks[name].reason})`).join(', ');
        throw new AppError('UNAVAILABLE', detailed ? `Unavailable: ${named}` : 'The service is unavailable');
      },
    }),
  ];
}

/** From the text of a driver's error to a word that cannot leak a host name or a password. */
function reasonOf(detail: string | undefined): Reason {
  const text = detail ?? '';
  if (/timed? ?out|timeout|deadline/i.test(text)) return 'timeout';
  if (/password|authenticat|permission denied|unauthori[sz]ed/i.test(text)) return 'refused_credentials';
  if (/ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|connect|reach|unavailable|closed|terminat/i.test(text)) return 'unreachable';
  return 'error';
}
