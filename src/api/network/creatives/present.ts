import type { z } from 'zod';
import type { MerchantCreative } from '../../../db/client';
import type { CreativeFilter } from '../../../domain/network/creatives';
import type { SortField } from '../../lists';
import { epoch } from '../../present';
import type { creativeItem, creativeListQuery, merchantCreative } from './schemas';

type Item = z.input<typeof creativeItem>;
type Srcset = Item['srcset'];

/** spec 2.13's creative, as each merchant of GET /merchants carries it. */
export function presentMerchantCreative(c: MerchantCreative): z.input<typeof merchantCreative> {
  return {
    id: c.id,
    type: c.type as Item['type'],
    width: c.width,
    height: c.height,
    format: c.format as Item['format'],
    url: c.url,
    public_id: c.publicId,
    // Written only from the validated body (srcsetItem), so the stored JSON has that shape.
    srcset: c.srcset as Srcset,
  };
}

export function presentCreative(c: MerchantCreative): Item {
  return { ...presentMerchantCreative(c), merchant_id: c.merchantId, created_on: epoch(c.createdAt), updated_on: epoch(c.updatedAt) };
}

export const CREATIVE_SORT: Record<string, SortField> = { created_on: 'createdAt', type: 'type', width: 'width', height: 'height' };

export function creativeFilter(q: z.output<typeof creativeListQuery>): CreativeFilter {
  return { merchantId: q.merchant_id, type: q.type };
}
