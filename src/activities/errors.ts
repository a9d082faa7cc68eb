import type { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptors } from '@temporalio/worker';
import { AppError } from '../domain/errors';

/**
 * Worker interceptor, the one activity boundary for errors: a domain refusal (AppError below 500:
 * not found, a conflict, an invalid value) is final, so it leaves as a non-retryable
 * ApplicationFailure of type = its code, with its attribute as details (src/api/accounts/termination.ts
 * turns it back into the same API error). Anything else is retried by the activity's policy.
 */
export function domainErrors(_ctx: Context): ActivityInterceptors {
  return {
    inbound: {
      async execute(input, next) {
        try {
          return await next(input);
        } catch (err) {
          if (err instanceof AppError && err.status < 500) throw ApplicationFailure.nonRetryable(err.message, err.code, { attribute: err.attribute });
          throw err;
        }
      },
    },
  };
}
