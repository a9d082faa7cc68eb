// Merchant creatives at /creatives (spec 2.13 `creatives[]`): the images GET /merchants answers
// with each merchant, in the one shape of reference data; decisions in docs/rewards.md "Creatives".
import { createCreative, deleteCreative, getCreative, listCreatives, updateCreative } from '../../../domain/network/creatives';
import { REFERENCE_AUTH } from '../../reference/catalogue-routes';
import { resourceRoutes } from '../../resource';
import type { RouteDef } from '../../route';
import { SOME_ID } from '../../validation';
import { CREATIVE_SORT, creativeFilter, presentCreative } from './present';
import * as s from './schemas';

const STORED = 'The service stores the URLs as given and never fetches them.';

export function creativeRoutes(): RouteDef[] {
  return resourceRoutes({
    path: '/creatives', one: 'Creative', many: 'Creatives', label: 'creative', tag: 'Business network', auth: REFERENCE_AUTH,
    item: s.creativeItem, present: presentCreative,
    create: {
      summary: 'Add a creative to a merchant',
      description: `merchant_id names a unit of type MERCHANT of this organisation (unknown, another organisation's, a VENUE or SUBSIDIARY: 400 naming merchant_id). ${STORED}`,
      errors: [], body: s.creativeCreateBody, run: createCreative,
      example: {
        merchant_id: SOME_ID, type: 'LOGO', width: 512, height: 512, format: 'PNG', url: 'https://cdn.example.com/cafe/logo-512.png', public_id: 'cafe/logo',
        srcset: [{ width: 128, height: 128, url: 'https://cdn.example.com/cafe/logo-128.png' }, { width: 256, height: 256, url: 'https://cdn.example.com/cafe/logo-256.png' }],
      },
    },
    list: {
      description: 'Filters: merchant_id, type. Sortable by created_on, type, width, height (default: newest first).',
      query: s.creativeListQuery, response: s.creativeList, sort: CREATIVE_SORT, filter: creativeFilter, run: listCreatives,
    },
    get: { run: getCreative },
    update: {
      description: `Partial: only the fields given change; srcset given replaces the list; null clears public_id. merchant_id given moves the creative to that merchant (checked as on create). ${STORED}`,
      errors: [404], body: s.creativeUpdateBody, run: updateCreative,
      example: { type: 'BANNER', width: 1200, height: 400, url: 'https://cdn.example.com/cafe/banner.webp', format: 'WEBP', srcset: [] },
    },
    delete: { description: 'The creative only; the merchant stays.', errors: [404], run: deleteCreative },
  });
}
