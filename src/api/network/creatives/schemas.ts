// Merchant creatives (spec 2.13 `creatives[]`): images of a merchant of the business network,
// stored as URLs the service never fetches (docs/rewards.md "Creatives").
import { z } from 'zod';
import { contentList } from '../../lists';
import { pagingQuery, zId } from '../../validation';

export const CREATIVE_TYPES = ['LOGO', 'BANNER', 'IMAGE'] as const;
export const CREATIVE_FORMATS = ['PNG', 'JPEG', 'GIF', 'SVG', 'WEBP'] as const;
export const CREATIVE_SORT_FIELDS = ['created_on', 'type', 'width', 'height'] as const;

/** Pixels: a positive integer, at most 20,000 (larger than any screen or print banner asks for). */
const pixels = z.number().int().min(1).max(20_000);

/**
 * An absolute https URL: the pattern is the whole rule, so what the document states is what the
 * service takes. Stored as given and answered to clients that render it; never fetched here, so
 * no address check applies (unlike webhooks).
 */
const httpsUrl = z
  .string()
  .max(2000)
  .regex(/^https:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][\x21-\x7e]*)?$/, 'must be an absolute https URL (host in ASCII, no spaces)')
  .meta({ description: 'Absolute https URL, at most 2,000 characters; the host in ASCII (punycode for international names), no spaces. Stored as given, never fetched by the service.', example: 'https://cdn.example.com/cafe/logo.png' });

export const srcsetItem = z.strictObject({ width: pixels, height: pixels, url: httpsUrl });

const fields = {
  merchant_id: zId.meta({ description: 'A unit of type MERCHANT of this organisation (GET /merchants); unknown, another organisation\'s, or a VENUE or SUBSIDIARY: 400 naming merchant_id.' }),
  type: z.enum(CREATIVE_TYPES).meta({ description: 'LOGO: the merchant\'s mark; BANNER: a wide header image; IMAGE: any other picture of the merchant.' }),
  width: pixels.meta({ description: 'Pixels (an SVG: its intended size).' }),
  height: pixels.meta({ description: 'Pixels (an SVG: its intended size).' }),
  format: z.enum(CREATIVE_FORMATS),
  url: httpsUrl,
  public_id: z.string().trim().min(1).max(200).nullish().meta({ description: 'The image\'s id at its image host (e.g. a CDN\'s public id), stored as given; null or absent: none.' }),
  srcset: z.array(srcsetItem).max(20).meta({ description: 'Other sizes of the same image, in the order given (at most 20).' }),
};

export const creativeCreateBody = z.strictObject({ ...fields, srcset: fields.srcset.default([]) });

/** Partial: only the fields given change; srcset given replaces the list; null clears public_id. */
export const creativeUpdateBody = z.strictObject({
  merchant_id: fields.merchant_id.optional(),
  type: fields.type.optional(),
  width: fields.width.optional(),
  height: fields.height.optional(),
  format: fields.format.optional(),
  url: fields.url.optional(),
  public_id: fields.public_id,
  srcset: fields.srcset.optional(),
});

export const creativeListQuery = pagingQuery(CREATIVE_SORT_FIELDS).extend({
  merchant_id: zId.optional().meta({ description: 'Only this merchant\'s creatives (a unit that has none, or is not the organisation\'s: an empty page).' }),
  type: z.enum(CREATIVE_TYPES).optional(),
});

/** spec 2.13's creative, as GET /merchants answers it inside each merchant. */
export const merchantCreative = z.object({
  id: z.string(),
  type: z.enum(CREATIVE_TYPES),
  width: z.number().int(),
  height: z.number().int(),
  format: z.enum(CREATIVE_FORMATS),
  url: z.string(),
  public_id: z.string().nullable(),
  srcset: z.array(z.object({ width: z.number().int(), height: z.number().int(), url: z.string() })),
});

/** The creative on its own: spec 2.13's fields, its merchant and its times. */
export const creativeItem = merchantCreative.extend({
  merchant_id: z.string(),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const creativeList = contentList(creativeItem);
