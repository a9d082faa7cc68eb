// Request value types that domain-owned schemas need as well as the API's (the domain may not
// import from src/api). src/api/validation.ts re-exports them.
import { z } from 'zod';

/** JSON booleans and the strings "true"/"false" are both accepted (spec 1, conventions). */
export const zBool = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .transform((v) => v === true || v === 'true')
  .meta({ description: 'Boolean; the strings "true" and "false" are accepted too.' });

/**
 * Options of every cross-field refinement: run only when each field parsed. A field that failed
 * its own check (an amount "abc") is then reported by name instead of reaching the refinement
 * as raw input, where it would throw (zod runs refinements after non-aborting issues).
 */
export const whenParsed = { when: (payload: z.core.ParsePayload) => payload.issues.length === 0 };
