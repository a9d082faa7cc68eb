// What a custom field definition can say (docs/custom-fields.md).
import type { z } from 'zod';
import type { definitionCreateBody, definitionUpdateBody } from '../../api/custom-fields/schemas';

export * from './kinds';

export type DefinitionInput = z.output<typeof definitionCreateBody>;
export type DefinitionPatch = z.output<typeof definitionUpdateBody>;
