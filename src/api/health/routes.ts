import { z } from 'zod';
import { AppError } from '../../domain/errors';
import type { AppDeps } from '../app';
import { route } from '../route';

const check = z.object({ ok: z.boolean(), detail: z.string().optional() });
const healthResponse = z.object({ status: z.enum(['ok', 'degraded']), checks: z.record(z.string(), check) });

export function healthRoutes(deps: AppDeps) {
  return [
    route({
      method: 'get', path: '/health', operationId: 'health', tag: 'Operations', auth: 'none',
      summary: 'Readiness: database and Temporal reachability',
      description: 'Answers 200 when every dependency answers, otherwise 503 with an error naming the failing checks. Needs no credential.',
      response: healthResponse, errors: [503],
      handler: async () => {
        const checks = await deps.health();
        const ok = Object.values(checks).every((c) => c.ok);
        if (!ok) throw new AppError('UNAVAILABLE', `Unavailable: ${failing(checks)}`);
        return { status: 'ok' as const, checks };
      },
    }),
  ];
}

function failing(checks: Record<string, { ok: boolean; detail?: string }>) {
  return Object.entries(checks)
    .filter(([, c]) => !c.ok)
    .map(([name, c]) => `${name}${c.detail ? ` (${c.detail})` : ''}`)
    .join(', ');
}
