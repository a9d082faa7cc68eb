import { AppError } from '../../domain/errors';

/**
 * Token bucket per credential, in this process's memory: each replica enforces the limit on
 * the requests it serves. Capacity is one second's worth of requests.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly defaultPerSecond: number) {}

  take(credentialId: string, perSecond: number | null, now = Date.now()): void {
    const rate = perSecond ?? this.defaultPerSecond;
    const bucket = this.buckets.get(credentialId) ?? { tokens: rate, at: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.buckets.set(credentialId, bucket);
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
      throw Object.assign(new AppError('RATE_LIMITED', `Too many requests: at most ${rate} per second for this credential`), { retryAfter });
    }
    bucket.tokens -= 1;
    if (this.buckets.size > 100_000) this.buckets.clear();
    this.buckets.set(credentialId, bucket);
  }
}
