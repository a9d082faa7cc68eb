// Every error code the API answers (API-CONVENTIONS.md "Errors"), with its status and its area.
// `AppError` accepts only these codes, so a new one is registered here or does not compile, and
// the OpenAPI document lists them: the Error schema's `code` enum, and each area's codes in the
// description of its tag. An area is an OpenAPI tag; `Common` codes can come from any operation.

export interface ErrorKind {
  status: number;
  area: string;
  meaning: string;
}

export const COMMON_AREA = 'Common';

export const ERROR_CODES = {
  INVALID_REQUEST: { status: 400, area: COMMON_AREA, meaning: 'A field is missing, malformed or breaks a rule; `attribute` names it.' },
  INVALID_CREDENTIAL: { status: 401, area: COMMON_AREA, meaning: 'No credential, or an unknown, revoked or expired one.' },
  FORBIDDEN: { status: 403, area: COMMON_AREA, meaning: 'The credential is valid but lacks the scope or kind this operation needs.' },
  HTTPS_REQUIRED: { status: 403, area: COMMON_AREA, meaning: 'The request did not arrive over HTTPS.' },
  NOT_FOUND: { status: 404, area: COMMON_AREA, meaning: "No such operation, or no such record in the caller's organisation." },
  METHOD_NOT_ALLOWED: { status: 405, area: COMMON_AREA, meaning: 'The path exists with other methods; see `Allow`.' },
  ALREADY_EXISTS: { status: 409, area: COMMON_AREA, meaning: 'A value that must be unique is taken; `attribute` names it.' },
  IN_USE: { status: 409, area: COMMON_AREA, meaning: 'The record is still referenced and cannot be deleted.' },
  IDEMPOTENCY_CONFLICT: { status: 409, area: COMMON_AREA, meaning: 'The Idempotency-Key was used with a different request.' },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, area: COMMON_AREA, meaning: 'A request with this Idempotency-Key is still running.' },
  IDEMPOTENCY_RESPONSE_ERASED: { status: 409, area: COMMON_AREA, meaning: 'A replay of a request whose stored response named a contact since anonymised: the response is no longer kept (nothing runs again).' },
  PAYLOAD_TOO_LARGE: { status: 413, area: COMMON_AREA, meaning: 'The body exceeds 1 MiB.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, area: COMMON_AREA, meaning: 'The body is not `application/json`.' },
  RATE_LIMITED: { status: 429, area: COMMON_AREA, meaning: 'Too many requests for this credential; see `Retry-After`.' },
  HEADERS_TOO_LARGE: { status: 431, area: COMMON_AREA, meaning: 'The request line and headers together exceed 64 KiB (a long query belongs in a body).' },
  INTERNAL_ERROR: { status: 500, area: COMMON_AREA, meaning: 'Unexpected error; never carries details.' },
  BAD_UPSTREAM_RESPONSE: { status: 502, area: COMMON_AREA, meaning: 'An upstream service answered badly.' },
  UNAVAILABLE: { status: 503, area: COMMON_AREA, meaning: 'A dependency is unavailable or the service is overloaded; retry.' },
  UPSTREAM_TIMEOUT: { status: 504, area: COMMON_AREA, meaning: 'An upstream service did not answer in time.' },
  INVALID_STATE_TRANSITION: { status: 409, area: COMMON_AREA, meaning: 'The life-cycle move is not allowed from the current state; the message names both states.' },

  CONTACT_ANONYMIZED: { status: 409, area: 'Contacts', meaning: 'The contact is anonymized: nothing may write personal data to it again.' },

  QUOTA_EXCEEDED: { status: 429, area: 'Communications', meaning: "The organisation's sending quota of the channel is used up for now (GET /communication_limits); see `Retry-After`." },
  CONTACT_OPTED_OUT: { status: 409, area: 'Communications', meaning: 'The contact opted out of the channel (email_opt_out, sms_opt_out); ignore_preferences: true sends anyway.' },

  PERIOD_OVERLAP: { status: 409, area: 'Accounting periods', meaning: 'The period overlaps another period of the organisation.' },
  PERIOD_BEFORE_CLOSED: { status: 409, area: 'Accounting periods', meaning: 'A period cannot start before the end of a closed one.' },
  PERIOD_CLOSED: { status: 409, area: 'Accounting periods', meaning: 'A closed period cannot be changed or deleted.' },
  PERIOD_ALREADY_CLOSED: { status: 409, area: 'Accounting periods', meaning: 'The period is already closed.' },
  PERIOD_NOT_ENDED: { status: 409, area: 'Accounting periods', meaning: 'The period cannot close before its end_date.' },
  EARLIER_PERIOD_OPEN: { status: 409, area: 'Accounting periods', meaning: 'Periods close in order: an earlier one is still open.' },

  INSUFFICIENT_BALANCE: { status: 409, area: 'Wallets', meaning: 'The debit would take the wallet below its minimum balance (allow_negative_balance permits it).' },
  LIMIT_EXCEEDED: { status: 409, area: 'Wallets', meaning: 'A limit rule refuses the debit or transfer; `attribute` names the rule (limit_rules.N).' },
  WALLET_CANCELLED: { status: 409, area: 'Wallets', meaning: 'The wallet is cancelled: it takes no journal and no change.' },
  WALLET_SUSPENDED: { status: 409, area: 'Wallets', meaning: 'The wallet is suspended: it accepts credits only.' },
  ALREADY_VOID: { status: 409, area: 'Wallets', meaning: 'The wallet transaction is already void.' },
  TERMINATION_IN_PROGRESS: { status: 409, area: 'Accounts', meaning: 'The account is being terminated into another account (transfer_to_account_id): one termination per account.' },
  ACCOUNT_TERMINATED: { status: 409, area: 'Accounts', meaning: 'The account is terminated: nothing about it or its wallets changes any more.' },
  ACCOUNT_SUSPENDED: { status: 409, area: 'Accounts', meaning: "The account is suspended: its wallets accept credits only." },
  PRIMARY_REQUIRED: { status: 409, area: 'Accounts', meaning: 'A contact keeps one primary account: make another one primary instead of unsetting it.' },
  ALREADY_MEMBER: { status: 409, area: 'Accounts', meaning: 'The account is already a member of an account group (a member belongs to one group).' },
  GROUP_CYCLE: { status: 409, area: 'Accounts', meaning: 'The account already funds the group, directly or through other groups: the groups would form a loop.' },

  NOT_PRIMARY_ACCOUNT: { status: 409, area: 'Rewards', meaning: "Only a contact's primary account holds reward information (spec rule 3)." },
  SPENDING_BLOCKED: { status: 409, area: 'Purchases', meaning: "The account's spending is blocked: a purchase may not spend from its wallet." },
  PURCHASE_CANCELLED: { status: 409, area: 'Purchases', meaning: 'The purchase is cancelled: it cannot be cancelled again or returned.' },
  RETURN_EXCEEDS_PURCHASE: { status: 409, area: 'Purchases', meaning: 'The returns of a purchase would exceed its total amount.' },
  PURCHASE_TRANSACTION: { status: 409, area: 'Wallets', meaning: 'The wallet transaction belongs to a purchase: cancel or return the purchase instead of voiding it.' },
  VOUCHER_USED: { status: 409, area: 'Vouchers', meaning: 'The voucher was already used.' },
  VOUCHER_EXPIRED: { status: 409, area: 'Vouchers', meaning: 'The voucher is past its expiration date.' },
  VOUCHER_CANCELLED: { status: 409, area: 'Vouchers', meaning: 'The voucher is cancelled.' },
  AUTOMATION_HAS_ACTIONS: { status: 409, area: 'Automations', meaning: "The automation's entity cannot change while it has actions (their filters name the entity's attributes)." },
  NO_ASSIGNEE: { status: 409, area: 'Automations', meaning: 'An assignment action found nobody to assign to (no location, no coverage, no active member, no postal code or lat/lon); the message says why.' },
  SEGMENT_NOT_STATIC: { status: 409, area: 'Automations', meaning: 'Add To Segment names a FILTER segment (its members are computed from its filters): only a STATIC segment takes members one at a time.' },
  SELF_LOCKOUT: { status: 409, area: 'Users', meaning: 'A user cannot take their own admin rights, disable themselves or take users:write from themselves; `attribute` names the field.' },
  LAST_ADMIN: { status: 409, area: 'Users', meaning: "The change would leave the organisation without an enabled admin; `attribute` names the field." },
  REPORT_RECIPIENT_MISSING: { status: 409, area: 'Reports', meaning: 'The report has nobody to go to: the user running it (or who created the API key) has no e-mail address; the message says how to set one.' },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes of one area, for its documentation. */
export function codesOf(area: string): Array<[ErrorCode, ErrorKind]> {
  return (Object.entries(ERROR_CODES) as Array<[ErrorCode, ErrorKind]>).filter(([, kind]) => kind.area === area);
}
