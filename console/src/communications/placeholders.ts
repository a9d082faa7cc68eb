// The placeholders a template or plan content may use: `{{contact.<field>}}` for the fields the
// API publishes (PLACEHOLDER_FIELDS in src/domain/communications/render.ts, stated in the
// OpenAPI descriptions of every content field; docs/communications.md "Placeholders"). The API
// answers them only as prose, not as a type, so this list is checked against the document the
// service serves by e2e/console-communications.e2e.ts. The API refuses any other `{{...}}`.
export const PLACEHOLDERS: { field: string; meaning: string }[] = [
  { field: 'id', meaning: "the contact's id" },
  { field: 'code', meaning: 'code' },
  { field: 'title', meaning: 'title' },
  { field: 'first_name', meaning: 'first name' },
  { field: 'middle_name', meaning: 'middle name' },
  { field: 'last_name', meaning: 'last name' },
  { field: 'name', meaning: 'company name, else first and last name' },
  { field: 'company_name', meaning: 'company name' },
  { field: 'email', meaning: 'primary e-mail address (else the oldest)' },
  { field: 'phone', meaning: 'primary phone number (else the oldest)' },
  { field: 'loyalty_identifier', meaning: 'loyalty identifier' },
  { field: 'referral_code', meaning: 'referral code' },
];

export const placeholder = (field: string) => `{{contact.${field}}}`;
