import type { Context } from '@temporalio/activity';
import type { ActivityInterceptors } from '@temporalio/worker';
import { HEARTBEAT_EVERY_MS } from '../workflows/heartbeat';

/**
 * Worker interceptor: heartbeats every HEARTBEAT_EVERY_MS while an activity runs (why:
 * src/workflows/heartbeat.ts). It repeats the activity's own last heartbeat details (at first those
 * of the previous attempt), so an activity that records its progress that way keeps it.
 */
export function keepAlive(ctx: Context): ActivityInterceptors {
  return {
    inbound: {
      async execute(input, next) {
        // A local activity lives inside its workflow task, which the SDK keeps alive itself.
        if (ctx.info.isLocal) return next(input);
        let details: unknown = ctx.info.heartbeatDetails;
        const beat = ctx.heartbeat.bind(ctx);
        // The SDK types it read-only; the context is this activity's own object.
        (ctx as { heartbeat: Context['heartbeat'] }).heartbeat = (d?: unknown) => beat((details = d));
        const timer = setInterval(() => beat(details), HEARTBEAT_EVERY_MS);
        try {
          return await next(input);
        } finally {
          clearInterval(timer);
        }
      },
    },
  };
}
