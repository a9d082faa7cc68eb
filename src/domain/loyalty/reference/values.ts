// The value lists of the loyalty reference data (docs/loyalty-reference.md "Values").
export const SIGN_UP_OPTIONS = ['OPEN', 'CLOSE_LOOP_SIGN_UP', 'EMAIL_DOMAIN'] as const;
export const OFFER_STATES = ['ACTIVE', 'INACTIVE'] as const;
export const AWARD_TYPES = ['PERCENTAGE', 'FIXED'] as const;
export const UNITS_OF_TIME = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export const VOUCHER_VALUE_TYPES = ['FIXED', 'VARIABLE'] as const;
export const VOUCHER_CLASSIFICATIONS = ['REFUND', 'GIFT', 'PROMOTION', 'REWARD'] as const;
export const VOUCHER_CATEGORIES = ['IDENTIFIES_CUSTOMER', 'BEARER'] as const;

export type SignUpOption = (typeof SIGN_UP_OPTIONS)[number];
export type AwardType = (typeof AWARD_TYPES)[number];
export type VoucherValueType = (typeof VOUCHER_VALUE_TYPES)[number];
