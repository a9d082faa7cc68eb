// What a custom field definition can say (docs/custom-fields.md); the API's schemas read these.
/** The records that carry custom_fields[]. */
export const CUSTOM_FIELD_ENTITIES = ['CONTACTS', 'ACCOUNTS', 'WALLETS', 'WALLET_TRANSACTIONS', 'VOUCHERS', 'PURCHASES'] as const;
export type CustomFieldEntity = (typeof CUSTOM_FIELD_ENTITIES)[number];

/** LIST: one of the definition's allowed_values. */
export const CUSTOM_FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'BOOLEAN', 'LIST'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** snake_case, starting with a letter: a key is an identifier integrations write in code. */
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,63}$/;
