/** Retry policies: Temporal's defaults (1 s initial, x2, max 100x initial, unlimited attempts). */
import { durMs, IRetryPolicy, msDur } from '../proto';
import type { RetrySpec } from './state';

export function retrySpec(p: IRetryPolicy | null | undefined): RetrySpec {
  const initialMs = durMs(p?.initialInterval) ?? 1000;
  return {
    initialMs,
    coeff: p?.backoffCoefficient && p.backoffCoefficient >= 1 ? p.backoffCoefficient : 2,
    maxIntervalMs: durMs(p?.maximumInterval) ?? initialMs * 100,
    maxAttempts: p?.maximumAttempts ?? 0,
    nonRetryable: p?.nonRetryableErrorTypes ?? [],
  };
}

export function retryPolicyOf(r: RetrySpec): IRetryPolicy {
  return {
    initialInterval: msDur(r.initialMs),
    backoffCoefficient: r.coeff,
    maximumInterval: msDur(r.maxIntervalMs),
    maximumAttempts: r.maxAttempts,
    nonRetryableErrorTypes: r.nonRetryable,
  };
}

export function backoff(r: RetrySpec, attempt: number): number {
  return Math.min(r.initialMs * Math.pow(r.coeff, attempt - 1), r.maxIntervalMs);
}
