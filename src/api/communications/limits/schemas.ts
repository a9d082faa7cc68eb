// GET|PUT /communication_limits (docs/communications.md "Quotas"): the organisation's sending
// quotas per channel and the floor of the plans public keys post.
import { z } from 'zod';
import { CHANNELS } from '../../../domain/communications/integration-settings';

const perHour = z.number().int().min(0).max(10_000_000);

const channelQuota = z.strictObject({
  channel: z.enum(CHANNELS),
  per_hour: perHour.meta({ description: 'Communications of the channel per rolling hour, whoever sends them (0: none).' }),
  public_key_per_hour: perHour.meta({ description: 'Of those, at most this many sent with public keys (the quota of a key anyone may hold).' }),
});

export const limitsBody = z.strictObject({
  quotas: z
    .array(channelQuota)
    .max(CHANNELS.length)
    .refine((list) => new Set(list.map((q) => q.channel)).size === list.length, { message: 'one entry per channel' })
    .optional()
    .meta({ description: 'The channels given replace theirs; the others keep their quota.' }),
  public_plan_min_interval_minutes: z.number().int().min(1).max(527_040).optional()
    .meta({ description: 'The least time between two ticks of a plan a public key posts.' }),
});

export const limitsResponse = z.object({
  quotas: z.array(z.object({ channel: z.enum(CHANNELS), per_hour: z.number().int(), public_key_per_hour: z.number().int() })),
  public_plan_min_interval_minutes: z.number().int(),
});
