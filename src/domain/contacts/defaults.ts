// System defaults (spec 2.1: `create_default_account` "creates one account with system
// defaults and no further input is needed"). One place, so an operator can find them; see
// docs/contacts.md.

export const CONTACT_DEFAULTS = {
  /** Name of the account made by `create_default_account`. */
  defaultAccountName: 'Default account',
  accountLifeCycleState: 'ACTIVE',
  /** Digits of a generated account number (unique within the organisation). */
  accountNumberDigits: 10,
  /** Without change or activity for this many months a contact is DORMANT. */
  dormantAfterMonths: 12,
  /** Marker written over personal text fields that must stay non-empty after anonymisation. */
  anonymizedMarker: 'ANONYMIZED',
} as const;
