// The purchase as posted (spec 4.8), read by the purchase's steps (./post.ts, ./spend.ts).
import type { z } from 'zod';
import type { purchaseBody } from '../../../api/loyalty/purchases/schemas';

export type PurchaseInput = z.output<typeof purchaseBody>;
