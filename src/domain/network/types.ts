// Inputs of the business-network operations: what the request schemas produce (z.output).
import type { z } from 'zod';
import type { creativeCreateBody, creativeUpdateBody } from '../../api/network/creatives/schemas';
import type { location, unitCreateBody, unitUpdateBody } from '../../api/network/schemas';

export type UnitCreateInput = z.output<typeof unitCreateBody>;
export type UnitPatch = z.output<typeof unitUpdateBody>;
export type LocationInput = z.output<typeof location>;
export type TapInput = NonNullable<UnitPatch['taps']>[number];
export type CreativeInput = z.output<typeof creativeCreateBody>;
export type CreativePatch = z.output<typeof creativeUpdateBody>;
