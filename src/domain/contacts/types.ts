// Inputs of the contact operations: exactly what the request schemas produce after validation
// (z.output), so a field added to a schema is a field the domain sees. Both the main and the
// "alternative contact shape" of spec 2.1 arrive here; normalise.ts turns them into one.
import type { z } from 'zod';
import type { companyProfile, consentBody, contactBulkUpdateBody, contactCreateBody, contactUpdateBody, demographics, zRef } from '../../api/contacts/schemas';

/** A reference given by id or by code (alternative shape). */
export type Ref = z.output<typeof zRef>;
export type ContactCreateInput = z.output<typeof contactCreateBody>;
export type ContactUpdateInput = z.output<typeof contactUpdateBody>;
export type ContactType = ContactCreateInput['contact_type'];
/** Fields shared by create and update. `undefined` = not supplied; `null` = clear. */
export type ContactFields = ContactUpdateInput;
/** Items as an update gives them (with an optional `id`); a create's items are the same without it. */
export type AddressInput = NonNullable<ContactUpdateInput['addresses']>[number];
export type PhoneInput = NonNullable<ContactUpdateInput['phones']>[number];
export type EmailInput = NonNullable<ContactUpdateInput['emails']>[number];
export type AccountInput = NonNullable<ContactCreateInput['accounts']>[number];
export type Demographics = NonNullable<z.output<typeof demographics>>;
export type CompanyProfileInput = NonNullable<z.output<typeof companyProfile>>;
export type BulkUpdateItem = z.output<typeof contactBulkUpdateBody>['contacts'][number];
export type ConsentState = z.output<typeof consentBody>['consent_state'];
