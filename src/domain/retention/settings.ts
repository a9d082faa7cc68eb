import { z } from 'zod';

/**
 * How long finished rows are kept before the daily retention run deletes them (docs/operations.md
 * "Retention"). Spread into the service's configuration (src/config.ts) with the other settings.
 */
export const retentionShape = {
  /** Days after dispatch that an outbox event is kept (a run still waiting for an approval keeps its event). */
  RETENTION_OUTBOX_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  /** Days after a webhook request finished (SUCCESS or FAILED) that it and its attempts are kept. */
  RETENTION_WEBHOOK_REQUESTS_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Hours an Idempotency-Key record is kept: at least the 24 h window API-CONVENTIONS.md promises. */
  RETENTION_IDEMPOTENCY_HOURS: z.coerce.number().int().min(24).max(87_600).default(24),
  /** Days after its expiry that a refresh token is kept (for investigating a session); 0: deleted once expired. */
  RETENTION_REFRESH_TOKENS_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
};

export type RetentionSettings = { [K in keyof typeof retentionShape]: z.output<(typeof retentionShape)[K]> };
