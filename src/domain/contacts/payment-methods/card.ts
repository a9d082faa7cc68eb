// Card rules. Only masked card numbers are ever stored (PCI DSS: at most the first 6 and last 4
// digits may be kept). A full card number is refused before anything is written, and error
// messages never echo the value, so it cannot reach the database, the logs or the
// idempotency records.
import { invalid } from '../../errors';
import type { CardInput } from './types';

const MASK_CHARS = '*xX\u2022#';
const ALLOWED = new RegExp(`^[0-9${MASK_CHARS}]+$`);

export interface MaskedCard {
  /** Separators removed, every mask character written as `*`. */
  maskedNumber: string;
  first6: string | null;
  last4: string;
}

/** True when the text holds 13-19 unmasked digits in a row (spaces and hyphens ignored). */
export function containsFullPan(text: string): boolean {
  return /\d{13,}/.test(text.replace(/[\s-]/g, ''));
}

/** Checks the masked number and that first6/last4 agree with it; derives them where visible. */
export function checkMaskedCard(card: Pick<CardInput, 'card_number' | 'first6' | 'last4'>): MaskedCard {
  const at = 'card.card_number';
  if (containsFullPan(card.card_number)) {
    throw invalid(at, 'card.card_number must be masked: full card numbers are never accepted');
  }
  const compact = card.card_number.replace(/[\s-]/g, '');
  if (!ALLOWED.test(compact)) throw invalid(at, 'card.card_number may hold only digits, mask characters (* X \u2022 #), spaces and hyphens');
  if (compact.length < 12 || compact.length > 19) throw invalid(at, 'card.card_number must have 12 to 19 positions');
  const parts = /^(\d*)[^\d]+(\d*)$/.exec(compact);
  if (!parts) throw invalid(at, 'card.card_number may show digits only at its start and end');
  const [, prefix, suffix] = parts;
  if (prefix.length > 6) throw invalid(at, 'card.card_number may show at most the first 6 digits');
  if (suffix.length !== 4) throw invalid(at, 'card.card_number must show exactly the last 4 digits');

  if (card.last4 !== undefined && card.last4 !== suffix) throw invalid('card.last4', 'card.last4 does not match card.card_number');
  if (card.first6 !== undefined && !card.first6.startsWith(prefix)) {
    throw invalid('card.first6', 'card.first6 does not match card.card_number');
  }
  const first6 = card.first6 ?? (prefix.length === 6 ? prefix : null);
  return { maskedNumber: compact.replace(/[^\d]/g, '*'), first6, last4: suffix };
}

/** A card is usable through the last day of its expiration month (UTC). */
export function checkExpiry(card: Pick<CardInput, 'expiration_month' | 'expiration_year'>, now: Date): void {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  if (card.expiration_year < year) throw invalid('card.expiration_year', 'card has expired: card.expiration_year is in the past');
  if (card.expiration_year > year + 50) throw invalid('card.expiration_year', `card.expiration_year must be at most ${year + 50}`);
  if (card.expiration_year === year && card.expiration_month < month) {
    throw invalid('card.expiration_month', 'card has expired: card.expiration_month is in the past');
  }
}
